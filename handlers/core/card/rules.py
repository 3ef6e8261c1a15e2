"""The approval card's rules: a format, an option or a budget chosen while it waits, then the
debate opened, declined or expired. Pure."""

from __future__ import annotations

from dataclasses import replace

from handlers.core import effects as fx
from handlers.core.card.events import (
    BudgetChosen,
    FormatChosen,
    OptionChosen,
    ProposalApproved,
    ProposalDeclined,
    ProposalExpired,
)
from handlers.core.card.state import Added
from handlers.core.feature import Moment, Rule, rules
from handlers.core.formats import card_options, formats_for
from handlers.core.model import Debate, Phase
from handlers.core.turns.steps import Step, format_of, run_plan

MAX_BUDGET_ROUNDS = 50  # as MAX_ROUNDS allows


def _waiting(debate: Debate, event: object) -> bool:
    """The card still waits for its answer."""
    return debate.phase is Phase.PROPOSED


def _approve(debate: Debate, event: ProposalApproved, at: Moment) -> Step:
    """Fix the roster and format, open the room, and take the format's first step. A format
    the roster cannot run is not taken: the debate keeps the one it was proposed with."""
    roster = event.roster or debate.setup.roster
    chosen = event.format if event.format in formats_for(roster) else debate.setup.format
    fixed = replace(
        debate,
        spend=replace(debate.spend, budget_usd=event.budget_usd),
        setup=replace(
            debate.setup,
            roster=roster,
            format=chosen,
            started_at=at.now,
            approved_by=event.actor.user_id,
            pauses_at_budget=event.pauses_at_budget,
            poll_hours=event.poll_hours,
            options=tuple(sorted((dict(debate.setup.options) | dict(event.options)).items())),
        ),
    )
    step = run_plan(format_of(fixed).start(fixed, at.rng))
    opening: tuple[fx.Effect, ...] = (
        fx.CloseCard(),
        fx.OpenRoom(),
        fx.WriteAgenda(),
        fx.Notify("wiki.agenda_written", (("page", "agenda"),)),
    )
    return Step(step.debate, (*opening, *step.effects))


def _closed(debate: Debate, event: ProposalDeclined | ProposalExpired, at: Moment) -> Step:
    """The card is declined or expired: no debate."""
    phase = Phase.DECLINED if isinstance(event, ProposalDeclined) else Phase.EXPIRED
    ended = replace(debate, phase=phase, ending=replace(debate.ending, ended_at=at.now))
    return Step(ended, (fx.CloseCard(),))


def _format_fits(debate: Debate, event: FormatChosen) -> bool:
    """A format the roster can run, on a waiting card."""
    return _waiting(debate, event) and event.format in formats_for(debate.setup.roster)


def _format_chosen(debate: Debate, event: FormatChosen, at: Moment) -> Step:
    return Step(replace(debate, setup=replace(debate.setup, format=event.format)))


def _budget_fits(debate: Debate, event: BudgetChosen) -> bool:
    """A budget in range, on a waiting card."""
    return _waiting(debate, event) and 1 <= event.rounds <= MAX_BUDGET_ROUNDS


def _budget_chosen(debate: Debate, event: BudgetChosen, at: Moment) -> Step:
    return Step(replace(debate, setup=replace(debate.setup, max_rounds=event.rounds)))


def _option_fits(debate: Debate, event: OptionChosen) -> bool:
    """One of an option's choices (or a form's text), on a waiting card."""
    options = card_options(debate.setup.format)
    return _waiting(debate, event) and any(
        o.key == event.key and o.valid(event.value, debate.ids) for o in options
    )


def _option_chosen(debate: Debate, event: OptionChosen, at: Moment) -> Step:
    """An option's choice; a form's text is kept per person, under their name."""
    setup = debate.setup
    if _is_form(debate, event.key):
        actor = event.actor
        mine = Added(event.key, actor.user_id, actor.shown_name, event.value)
        others = tuple(a for a in setup.added if (a.key, a.user_id) != (event.key, actor.user_id))
        return Step(replace(debate, setup=replace(setup, added=(*others, mine))))
    options = tuple(sorted((dict(setup.options) | {event.key: event.value}).items()))
    return Step(replace(debate, setup=replace(setup, options=options)))


def _is_form(debate: Debate, key: str) -> bool:
    """True if the card option `key` is free text: a form, kept per person."""
    return any(o.key == key and o.is_text for o in card_options(debate.setup.format))


RULES = rules(
    Rule(ProposalApproved, _approve, _waiting),
    Rule(ProposalDeclined, _closed, _waiting),
    Rule(ProposalExpired, _closed, _waiting),
    Rule(FormatChosen, _format_chosen, _format_fits),
    Rule(BudgetChosen, _budget_chosen, _budget_fits),
    Rule(OptionChosen, _option_chosen, _option_fits),
)
