"""Persistent buttons: `DynamicItem`s whose state lives in SQLite, so they outlive restarts."""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from bot.formatting import format_label
from handlers.formats import formats_for
from handlers.i18n import Strings
from handlers.model import Debate
from handlers.shorten import shorten

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


class ClickHandler(Protocol):
    """What the buttons hand their clicks to (the Discord front end)."""

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, debate_id: int
    ) -> None:
        """A card's or a thread's button."""

    async def on_answer_button(
        self, interaction: discord.Interaction[Any], debate_id: int, option: int
    ) -> None:
        """One option of the moderator's question."""

    async def on_format(
        self, interaction: discord.Interaction[Any], debate_id: int, format_name: str
    ) -> None:
        """A format picked in the card's select menu."""


def _front(interaction: discord.Interaction[Any]) -> ClickHandler:
    """The client's front end (the client is a DebateBot; typed here without importing it)."""
    return cast("ClickHandler", interaction.client.front)


class DebateButton(
    discord.ui.DynamicItem[Button], template=r"debate:(?P<action>open|decline|stop):(?P<id>\d+)"
):
    """Open / Not now on a card, Stop in a thread: `debate:<action>:<id>`."""

    def __init__(self, action: str, debate_id: int, label: str = "", style: int = 2) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=discord.ButtonStyle(style),
                custom_id=f"debate:{action}:{debate_id}",
            )
        )
        self.action = action
        self.debate_id = debate_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DebateButton:
        """Rebuild the button from its custom_id (after a restart, too)."""
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the front end."""
        await _front(interaction).on_button(interaction, self.action, self.debate_id)


class AnswerButton(
    discord.ui.DynamicItem[Button], template=r"debate:answer:(?P<id>\d+):(?P<option>\d+)"
):
    """One option of the moderator's question: `debate:answer:<id>:<option>`."""

    def __init__(self, debate_id: int, option: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label or str(option), 80),  # the embed lists it in full
                style=discord.ButtonStyle.secondary,
                custom_id=f"debate:answer:{debate_id}:{option}",
            )
        )
        self.debate_id = debate_id
        self.option = option

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnswerButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["id"]), int(match["option"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the answer to the front end."""
        await _front(interaction).on_answer_button(interaction, self.debate_id, self.option)


class FormatSelect(discord.ui.DynamicItem[Select], template=r"debate:format:(?P<id>\d+)"):
    """The card's format menu: `debate:format:<id>`; the choice is stored, not held here."""

    def __init__(
        self, debate_id: int, options: tuple[discord.SelectOption, ...] = (), row: int = 1
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"debate:format:{debate_id}",
                options=list(options) or [discord.SelectOption(label="-")],
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.debate_id = debate_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FormatSelect:
        """Rebuild the menu from its custom_id (the picked value arrives with the click)."""
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the picked format to the front end."""
        picked = self.item.values[0] if self.item.values else ""
        await _front(interaction).on_format(interaction, self.debate_id, picked)


MAX_OPTIONS = 25  # Discord's limit per select menu


def card_view(
    debate_id: int, strings: Strings, formats: tuple[str, ...] = (), chosen: str = ""
) -> discord.ui.View:
    """Open / Not now, and a menu of `formats` with `chosen` selected when there is a choice."""
    view = discord.ui.View(timeout=None)
    view.add_item(DebateButton("open", debate_id, strings("front.button_open"), 3))
    view.add_item(DebateButton("decline", debate_id, strings("front.button_decline"), 2))
    if len(formats) > 1:  # one format is no choice: the card names it
        options = tuple(
            discord.SelectOption(
                label=shorten(format_label(strings, name), 100), value=name, default=name == chosen
            )
            for name in formats[:MAX_OPTIONS]
        )
        view.add_item(FormatSelect(debate_id, options))
    return view


def card_view_of(debate: Debate, strings: Strings) -> discord.ui.View:
    """The card's buttons, and its menu of the formats the debate's roster can run."""
    return card_view(debate.id, strings, formats_for(debate.roster), debate.format)


def status_view(debate_id: int, strings: Strings) -> discord.ui.View:
    """Stop."""
    view = discord.ui.View(timeout=None)
    view.add_item(DebateButton("stop", debate_id, strings("front.button_stop"), 4))
    return view


MAX_BUTTONS = 25  # Discord's limit per message


def question_view(debate_id: int, options: tuple[str, ...]) -> discord.ui.View:
    """One button per answer option, as many as Discord allows (the question lists them all)."""
    view = discord.ui.View(timeout=None)
    for index, option in enumerate(options[:MAX_BUTTONS]):
        view.add_item(AnswerButton(debate_id, index, option))
    return view
