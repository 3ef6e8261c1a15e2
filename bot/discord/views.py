"""Persistent buttons: `DynamicItem`s whose state lives in SQLite, so they outlive restarts.
Each builds the event it stands for; who may click is checked once (bot/discord/clicks.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.clicks import CardChoice, DebateClick, front_of
from bot.discord.embeds import BUTTON_LABEL_LIMIT, MAX_BUTTONS, budget_label
from bot.discord.forms import FormButton
from bot.formatting import (
    format_label,
    offers_a_choice,
    option_label,
    option_question,
    pause_area,
)
from handlers.core.controls import CONTROLS
from handlers.core.events import (
    BudgetChosen,
    BudgetDecided,
    Event,
    FormatChosen,
    OptionChosen,
    ProposalApproved,
    ProposalDeclined,
)
from handlers.core.formats import card_options, formats_for
from handlers.core.formats.base import CardOption
from handlers.core.i18n import Strings
from handlers.core.model import Actor, Debate, Participant, UserQuestion
from handlers.core.shorten import shorten
from handlers.core.spending.limits import PAUSE_CHOICES

Button = discord.ui.Button[Any]
Select = discord.ui.Select[Any]


# The event each button stands for, by its action, from the person and the custom_id's tail:
# the card's and the pauses' here, the running debate's controls from CONTROLS. Skip names the
# ask it was shown for (`:<turn>:<seat>`), a pause's buttons their pause (`:<at>`, its
# number): an old one answers no later one.
BUTTON_EVENTS: dict[str, Callable[..., Event]] = {
    "open": ProposalApproved,
    "decline": ProposalDeclined,
    **{control.name: control.build for control in CONTROLS},
    "extend": lambda actor, at: BudgetDecided(actor, "extend", int(at)),
    "conclude": lambda actor, at: BudgetDecided(actor, "conclude", int(at)),
    "consensus": lambda actor, at: BudgetDecided(actor, "consensus", int(at)),
    "resume": lambda actor, at: BudgetDecided(actor, "resume", int(at)),
    "option": OptionChosen,  # a card option beyond the menus: `:<key>:<value>`
}


class DebateButton(
    DebateClick,
    discord.ui.DynamicItem[Button],
    template=rf"debate:(?P<action>{'|'.join(BUTTON_EVENTS)}):(?P<id>\d+)(?P<tail>(:[^:]+)*)",
):
    """A button of BUTTON_EVENTS: `debate:<action>:<id>` and what it names, `:<part>...`."""

    def __init__(
        self, action: str, debate_id: int, label: str = "", style: int = 2, *names: object
    ) -> None:
        tail = "".join(f":{name}" for name in names)
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=discord.ButtonStyle(style),
                custom_id=f"debate:{action}:{debate_id}{tail}",
            )
        )
        self.action, self.debate_id, self.names = action, debate_id, tail.split(":")[1:]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DebateButton:
        """Rebuild the button from its custom_id (after a restart, too)."""
        return cls(match["action"], int(match["id"]), "", 2, *match["tail"].split(":")[1:])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """The button's event, by the person who pressed it."""
        front = front_of(interaction)
        event = BUTTON_EVENTS[self.action](front.actor(interaction.user), *self.names)
        if isinstance(event, OptionChosen):  # a card's choice: the card shows it
            await front.on_card_choice(interaction, self.debate_id, event)
            return
        await front.submit(interaction, self.debate_id, event)


class AnswerButton(
    DebateClick,
    discord.ui.DynamicItem[Button],
    template=r"debate:answer:(?P<id>\d+):(?P<question>\d+):(?P<option>\d+)",
):
    """An option of question number `question`: `debate:answer:<id>:<question>:<option>`."""

    def __init__(self, debate_id: int, question: int, option: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                # Cut to fit: the question's embed lists it in full.
                label=shorten(label or str(option), BUTTON_LABEL_LIMIT),
                style=discord.ButtonStyle.secondary,
                custom_id=f"debate:answer:{debate_id}:{question}:{option}",
            )
        )
        self.debate_id, self.question, self.option = debate_id, question, option

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnswerButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["id"]), int(match["question"]), int(match["option"]))

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the answer to the front end (the option's text is the stored question's)."""
        await front_of(interaction).on_answer(
            interaction, self.debate_id, self.question, self.option
        )


class CardSelect(
    DebateClick,
    discord.ui.DynamicItem[Select],
    template=r"debate:(?P<what>format|budget|option\.[a-z_.]+):(?P<id>\d+)",
):
    """The card's menus, `debate:<format|budget|option.<key>>:<id>`; the choice is stored."""

    def __init__(
        self,
        what: str,
        debate_id: int,
        options: tuple[discord.SelectOption, ...] = (),
        picks: tuple[int, int] = (1, 1),  # at least, at most (a squad: several members)
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"debate:{what}:{debate_id}",
                options=list(options) or [discord.SelectOption(label="-")],
                min_values=picks[0],
                max_values=picks[1],
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
        front = front_of(interaction)
        await front.on_card_choice(
            interaction, self.debate_id, self.choice(front.actor(interaction.user))
        )

    def choice(self, actor: Actor) -> CardChoice:
        """The event of the value picked in this menu (several: comma-separated)."""
        picked = self.item.values[0] if self.item.values else ""
        if self.what == "format":
            return FormatChosen(actor, picked)
        if self.what.startswith("option."):
            return OptionChosen(
                actor, self.what.removeprefix("option."), ",".join(self.item.values)
            )
        return BudgetChosen(actor, int(picked) if picked.isdigit() else 0)


# Every persistent control, registered at start-up (bot/discord/client.py).
DYNAMIC_ITEMS = (DebateButton, AnswerButton, CardSelect, FormButton)
MAX_OPTIONS = 25  # Discord's limit per select menu
BUDGET_ROUNDS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)  # the card's round menu (and the current)


@dataclass(frozen=True)
class CardControls:
    """The card's controls, by where the card's layout shows them: the menus (each its own
    row), the options stepped by a button, the forms (key, button) and Open / Not now."""

    menus: tuple[CardSelect, ...]
    steps: tuple[DebateButton, ...]
    forms: tuple[tuple[str, FormButton], ...]
    answers: tuple[DebateButton, DebateButton]


def card_controls(debate: Debate, strings: Strings) -> CardControls:
    """Open / Not now, the formats and round budgets to pick, the format's questions and forms."""
    menus: list[CardSelect] = []
    formats = formats_for(debate.setup.roster)
    if len(formats) > 1:  # one format is no choice: the card names it
        labelled = [(format_label(strings, name), name) for name in formats]
        menus.append(CardSelect("format", debate.id, _options(labelled, debate.setup.format)))
    rounds = sorted({*BUDGET_ROUNDS, debate.setup.max_rounds})
    labelled = [(budget_label(debate, n, strings), str(n)) for n in rounds]
    menus.append(CardSelect("budget", debate.id, _options(labelled, str(debate.setup.max_rounds))))
    asked = card_options(debate.setup.format)
    offered = [o for o in asked if not o.is_text and offers_a_choice(debate, o)]
    menus += [option_select(debate, option, strings) for option in offered[:2]]
    steps = []
    for option in [o for o in offered[2:] if o.choices]:  # no menu left: a button that steps on
        current = option.current(debate)
        after = option.choices[(option.choices.index(current) + 1) % len(option.choices)]
        label = shorten(option_label(strings, option.key, current), 80)
        steps.append(DebateButton("option", debate.id, label, 2, option.key, after))
    forms = tuple(
        (o.key, FormButton(o.key, debate.id, option_question(strings, o.key)))
        for o in asked
        if o.is_text
    )[:3]
    answers = (
        DebateButton("open", debate.id, strings("front.button_open"), 3),
        DebateButton("decline", debate.id, strings("front.button_decline"), 2),
    )
    return CardControls(tuple(menus), tuple(steps), forms, answers)


def option_select(debate: Debate, option: CardOption, strings: Strings) -> CardSelect:
    """A menu for one of the format's setup questions, the stored (or default) choice picked;
    of members: each of the card's participants, the current ones picked."""
    what, current = f"option.{option.key}", option.current(debate)
    if option.members:
        question = option_question(strings, option.key)
        seats = [(f"{question}: {named(m)}", m.id) for m in debate.setup.roster]
        most = min(option.members, len(seats))
        menu = _options(seats, *current.split(","))
        return CardSelect(what, debate.id, menu, picks=(min(2, most), most))
    labelled = [(option_label(strings, option.key, choice), choice) for choice in option.choices]
    return CardSelect(what, debate.id, _options(labelled, current))


def named(member: Participant) -> str:
    """`AG (architect)`: a member as a menu lists it."""
    return f"{member.name} ({member.persona})" if member.persona else member.name


def _options(labelled: list[tuple[str, str]], *current: str) -> tuple[discord.SelectOption, ...]:
    """A menu's (label, value) options, as many as Discord allows, the current values picked."""
    return tuple(
        discord.SelectOption(label=shorten(label, 100), value=value, default=value in current)
        for label, value in labelled[:MAX_OPTIONS]
    )


def budget_view(debate: Debate, strings: Strings) -> discord.ui.View:
    """At a pause, its answers: declare consensus / one more round / resume / conclude."""
    view = discord.ui.View(timeout=None)
    at, area = (
        debate.people.pauses or debate.floor.turns,
        pause_area(debate),
    )  # (turns: an unnumbered one)
    choices = PAUSE_CHOICES.get(debate.people.paused, frozenset())
    for action, style in PAUSE_BUTTONS:
        if action not in choices:
            continue
        label = strings(f"{area}.button_{action}")
        view.add_item(DebateButton(action, debate.id, label, style, at))
    return view


PAUSE_BUTTONS = (("consensus", 3), ("extend", 1), ("resume", 1), ("conclude", 2))


def status_controls(debate: Debate, strings: Strings) -> list[DebateButton]:
    """The controls offered now (Stop; Skip while a turn is being answered, naming it; ...)."""
    return [
        DebateButton(
            control.name, debate.id, strings(f"front.button_{control.name}"), control.style, *names
        )
        for control in CONTROLS
        for names in control.offered(debate)
    ]


def question_view(debate: Debate, question: UserQuestion, form_label: str = "") -> discord.ui.View:
    """A button per option (as many as fit) and the form's, if any; each names the question."""
    view = discord.ui.View(timeout=None)
    number, form = debate.question_number, question.form
    for index, option in enumerate(question.options[: MAX_BUTTONS - bool(form)]):
        view.add_item(AnswerButton(debate.id, number, index, option))
    if form:
        view.add_item(FormButton(form, debate.id, form_label, question=number))
    return view
