"""Persistent buttons: `DynamicItem`s whose state lives in SQLite, so they outlive restarts.
Each builds the event it stands for; who may click is checked once (bot/discord/clicks.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, cast

import discord

from bot.discord.clicks import CardChoice, DebateClick, EventFront, front_of
from bot.discord.embeds import budget_label
from bot.discord.forms import FormButton
from bot.formatting import format_label, option_label, pause_area
from handlers.core.credit import PAUSE_CHOICES
from handlers.core.events import (
    BudgetChosen,
    BudgetDecided,
    Event,
    FormatChosen,
    OptionChosen,
    ProposalApproved,
    ProposalDeclined,
    SkipRequested,
    StopRequested,
)
from handlers.core.formats import format_named, formats_for
from handlers.core.formats.base import CardOption
from handlers.core.i18n import Strings
from handlers.core.model import Actor, Debate
from handlers.core.shorten import shorten

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


def _front(interaction: discord.Interaction[Any]) -> EventFront:
    return cast("EventFront", front_of(interaction))


# The events a plain button stands for, by its action: a new button is a line here.
BUTTON_EVENTS: dict[str, Callable[[Actor], Event]] = {
    "open": ProposalApproved,
    "decline": ProposalDeclined,
    "stop": StopRequested,
    "skip": SkipRequested,
}


class DebateButton(
    DebateClick,
    discord.ui.DynamicItem[Button],
    template=rf"debate:(?P<action>{'|'.join(BUTTON_EVENTS)}):(?P<id>\d+)",
):
    """Open / Not now on a card, Stop and Skip in a thread: `debate:<action>:<id>`."""

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

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """The button's event, by the person who pressed it."""
        front = _front(interaction)
        event = BUTTON_EVENTS[self.action](front.actor(interaction.user))
        await front.submit(interaction, self.debate_id, event)


class BudgetButton(
    DebateClick,
    discord.ui.DynamicItem[Button],
    template=r"debate:(?P<action>extend|conclude|consensus|resume):(?P<id>\d+):(?P<at>\d+)",
):
    """Extend / Conclude / Declare consensus / Resume at the pause after turn `at`:
    `debate:<action>:<id>:<at>` (a button of an earlier pause does not answer a later one)."""

    def __init__(
        self, action: str, debate_id: int, at: int, label: str = "", style: int = 2
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=discord.ButtonStyle(style),
                custom_id=f"debate:{action}:{debate_id}:{at}",
            )
        )
        self.action = cast("Literal['extend', 'conclude', 'consensus', 'resume']", action)
        self.debate_id = debate_id
        self.at = at

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BudgetButton:
        """Rebuild the button from its custom_id (after a restart, too)."""
        return cls(match["action"], int(match["id"]), int(match["at"]))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """The people's word at this pause."""
        front = _front(interaction)
        event = BudgetDecided(front.actor(interaction.user), self.action, self.at)
        await front.submit(interaction, self.debate_id, event)


class AnswerButton(
    DebateClick,
    discord.ui.DynamicItem[Button],
    template=r"debate:answer:(?P<id>\d+):(?P<option>\d+)",
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

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the answer to the front end (the option's text is the stored question's)."""
        await _front(interaction).on_answer(interaction, self.debate_id, self.option)


class CardSelect(
    DebateClick,
    discord.ui.DynamicItem[Select],
    template=r"debate:(?P<what>format|budget|option\.[a-z_.]+):(?P<id>\d+)",
):
    """The card's menus: `debate:format:<id>`, `debate:budget:<id>` and a format's setup
    questions `debate:option.<key>:<id>`; the choice is stored, not held here."""

    def __init__(
        self,
        what: str,
        debate_id: int,
        options: tuple[discord.SelectOption, ...] = (),
        row: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"debate:{what}:{debate_id}",
                options=list(options) or [discord.SelectOption(label="-")],
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.what = what
        self.debate_id = debate_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardSelect:
        """Rebuild the menu from its custom_id (the picked value arrives with the click)."""
        return cls(match["what"], int(match["id"]))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """The picked value as the card's event."""
        front = _front(interaction)
        await front.on_card_choice(
            interaction, self.debate_id, self.choice(front.actor(interaction.user))
        )

    def choice(self, actor: Actor) -> CardChoice:
        """The event of the value picked in this menu."""
        picked = self.item.values[0] if self.item.values else ""
        if self.what == "format":
            return FormatChosen(actor, picked)
        if self.what.startswith("option."):
            return OptionChosen(actor, self.what.removeprefix("option."), picked)
        return BudgetChosen(actor, int(picked) if picked.isdigit() else 0)


MAX_OPTIONS = 25  # Discord's limit per select menu
BUDGET_ROUNDS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)  # the card's round menu (and the current)


def card_view(debate: Debate, strings: Strings) -> discord.ui.View:
    """Open / Not now; a menu of the formats the roster can run when there is a choice; a
    menu of round budgets with their estimates."""
    view = discord.ui.View(timeout=None)
    view.add_item(DebateButton("open", debate.id, strings("front.button_open"), 3))
    view.add_item(DebateButton("decline", debate.id, strings("front.button_decline"), 2))
    formats = formats_for(debate.roster)
    if len(formats) > 1:  # one format is no choice: the card names it
        options = tuple(
            discord.SelectOption(
                label=shorten(format_label(strings, name), 100),
                value=name,
                default=name == debate.format,
            )
            for name in formats[:MAX_OPTIONS]
        )
        view.add_item(CardSelect("format", debate.id, options, row=1))
    budgets = tuple(
        discord.SelectOption(
            label=shorten(budget_label(debate, rounds, strings), 100),
            value=str(rounds),
            default=rounds == debate.max_rounds,
        )
        for rounds in sorted({*BUDGET_ROUNDS, debate.max_rounds})[:MAX_OPTIONS]
    )
    view.add_item(CardSelect("budget", debate.id, budgets, row=2))
    asked = format_named(debate.format).card_options
    for row, option in enumerate([o for o in asked if not o.is_text][:2], start=3):
        view.add_item(option_select(debate, option, strings, row))
    for option in [o for o in asked if o.is_text][:3]:  # forms: buttons beside Open
        label = strings(f"front.option_{option.key.replace('.', '_')}")
        view.add_item(FormButton(option.key, debate.id, label, row=0))
    return view


def option_select(debate: Debate, option: CardOption, strings: Strings, row: int) -> CardSelect:
    """A menu for one of the format's setup questions, the stored (or default) choice picked."""
    current = debate.option(option.key, option.choices[0])
    options = tuple(
        discord.SelectOption(
            label=shorten(option_label(strings, option.key, choice), 100),
            value=choice,
            default=choice == current,
        )
        for choice in option.choices[:MAX_OPTIONS]
    )
    return CardSelect(f"option.{option.key}", debate.id, options, row=row)


def budget_view(debate: Debate, strings: Strings) -> discord.ui.View:
    """At a pause, its answers: declare consensus / one more round / resume / conclude."""
    view = discord.ui.View(timeout=None)
    at, area = debate.turns, pause_area(debate)
    choices = PAUSE_CHOICES.get(debate.paused, frozenset())
    for action, style in PAUSE_BUTTONS:
        if action not in choices:
            continue
        label = strings(f"{area}.button_{action}")
        view.add_item(BudgetButton(action, debate.id, at, label, style))
    return view


PAUSE_BUTTONS = (("consensus", 3), ("extend", 1), ("resume", 1), ("conclude", 2))


def status_view(debate_id: int, strings: Strings) -> discord.ui.View:
    """Stop, and Skip this turn."""
    view = discord.ui.View(timeout=None)
    view.add_item(DebateButton("stop", debate_id, strings("front.button_stop"), 4))
    view.add_item(DebateButton("skip", debate_id, strings("front.button_skip"), 2))
    return view


MAX_BUTTONS = 25  # Discord's limit per message


def question_view(
    debate_id: int, options: tuple[str, ...], form: str = "", form_label: str = ""
) -> discord.ui.View:
    """One button per answer option, as many as Discord allows (the question lists them all);
    and the button of the form the answer may be typed in, if the question has one."""
    view = discord.ui.View(timeout=None)
    for index, option in enumerate(options[: MAX_BUTTONS - bool(form)]):
        view.add_item(AnswerButton(debate_id, index, option))
    if form:
        view.add_item(FormButton(form, debate_id, form_label))
    return view
