"""The one check of who may click a debate's controls, and the one handler of what goes wrong
in a click: every persistent control mixes `DebateClick` in."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import discord

from handlers.core.admission import Submitted
from handlers.core.events import BudgetChosen, Event, FormatChosen, OptionChosen
from handlers.core.model import Actor

CardChoice = FormatChosen | OptionChosen | BudgetChosen


class ClickFront(Protocol):
    """What the controls hand their clicks to (the Discord front end)."""

    async def may_click(self, interaction: discord.Interaction[Any], debate_id: int) -> bool:
        """True if the person may act on the debate; else they are told why, privately."""

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        """Answer a click that failed with a short private reply (a bug is logged too)."""

    def actor(self, user: discord.User | discord.Member) -> Actor:
        """The engine's view of the person who clicked."""

    async def submit(
        self, interaction: discord.Interaction[Any], debate_id: int, event: Event
    ) -> None:
        """Acknowledge the click and hand the debate its event."""

    async def on_answer(
        self, interaction: discord.Interaction[Any], debate_id: int, question: int, option: int
    ) -> None:
        """One option of the moderator's question number `question`."""

    async def on_card_choice(
        self, interaction: discord.Interaction[Any], debate_id: int, event: CardChoice
    ) -> Submitted:
        """A format, a budget or a format's option picked on the card; what became of it."""

    async def on_form_button(
        self, interaction: discord.Interaction[Any], debate_id: int, key: str, question: int
    ) -> None:
        """A form's button: open the form (or refuse)."""


def front_of(interaction: discord.Interaction[Any]) -> ClickFront:
    """The client's front end (the client is a DebateBot, its front set by the composition root)."""
    return cast("ClickFront", interaction.client.front)


class DebateClick:
    """Mixed into each debate's `DynamicItem` (before it): discord.py's `interaction_check`
    asks the front end who may click, and `callback` runs `clicked` with every error turned
    into a private reply by the front end's `on_error` (discord.py's dynamic items have no
    view whose `on_error` would see them)."""

    debate_id: int
    # What the control does once the person may click: each control defines it.
    clicked: Callable[[discord.Interaction[Any]], Awaitable[None]]

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only the people of the debate (or approvers) get past this."""
        front = front_of(interaction)
        try:
            return await front.may_click(interaction, self.debate_id)
        except Exception as exc:  # a boundary: discord.py would drop it silently
            await front.on_error(interaction, exc)
            return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Run the click; what goes wrong is answered by the front end's `on_error`."""
        front = front_of(interaction)
        try:
            await self.clicked(interaction)
        except Exception as exc:  # a boundary: the views' one error handler
            await front.on_error(interaction, exc)
