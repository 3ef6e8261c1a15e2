"""Steelman's rules: pressed while the debate runs (and no steelman is still owed), each seat's
next turn must restate the other side's strongest case before answering it; each such turn is
shown as a steelman in the thread and the Round-Log once it is stored. Pure."""

from __future__ import annotations

from dataclasses import replace

from handlers.core import effects as fx
from handlers.core.feature import After, Control, Moment, Rule, rules
from handlers.core.model import Debate
from handlers.core.steelman.events import SteelmanRequested
from handlers.core.turns.events import ReplyReceived
from handlers.core.turns.steps import Step

MIN_SIDES = 2  # a steelman restates another side's case


def offered(debate: Debate) -> bool:
    """True if Steelman can be asked for now: the debate runs, has another side for each
    seat, and owes no steelman still."""
    sides = [seat for seat in debate.ids if seat not in debate.spend.benched]
    return debate.phase.hears_people and len(sides) >= MIN_SIDES and not debate.steelman.due


def _fits(debate: Debate, event: SteelmanRequested) -> bool:
    return offered(debate)


def _requested(debate: Debate, event: SteelmanRequested, at: Moment) -> Step:
    """Every seat not held back owes a steelman from the next turn number on (an ask running
    now keeps the brief it was given)."""
    first = debate.last_number + 1
    due = tuple((seat, first) for seat in debate.ids if seat not in debate.spend.benched)
    person = event.actor.shown_name
    asked = replace(debate, steelman=replace(debate.steelman, due=due, by=person))
    notice = fx.Notify("steelman.requested", (("user", person),))
    logged = fx.LogNote(f"steelman-{first}", "steelman", person, "")
    return Step(asked, (notice, logged))


def _restated(debate: Debate, event: ReplyReceived, step: Step) -> Step:
    """A stored turn that owed a steelman is one: it is shown as such, and its seat owes no
    more. (What the turn says is the debater's: the brief asked for it, nothing is checked.)"""
    turn = step.turn
    if turn is None or not debate.steelman.owed(turn.seat, turn.number):
        return step
    kept = step.debate.steelman
    due = tuple((seat, first) for seat, first in kept.due if seat != turn.seat)
    done = replace(kept, due=due, turns=(*kept.turns, turn.number))
    shown = (
        fx.Notify("steelman.turn", (("seat", turn.seat), ("turn", str(turn.number)))),
        fx.LogNote(f"steelman-turn-{turn.number}", "steelman_turn", debate.name_of(turn.seat), ""),
    )
    logged = fx.AppendRoundLog(turn.number)
    at = step.effects.index(logged) + 1 if logged in step.effects else len(step.effects)
    effects = (*step.effects[:at], *shown, *step.effects[at:])
    return Step(replace(step.debate, steelman=done), effects, turn)


RULES = rules(Rule(SteelmanRequested, _requested, _fits))
AFTER = (After(ReplyReceived, _restated),)
STEELMAN = Control(
    "steelman", 1, SteelmanRequested, lambda debate: ((),) if offered(debate) else ()
)
