"""A usage limit meets a step of several asks, pure: the seat that hit it is paused, the others
go on; a second seat's limit joins the pause; Resume asks only the paused seats again; a late
reset figure is bounded; the end clears the pause."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from handlers.core.effects import AskBudget, AskDebater, ScheduleResume
from handlers.core.events import BudgetDecided, DebaterFailed, Event, ReplyReceived, StopRequested
from handlers.core.model import (
    Backend,
    Debate,
    FailureKind,
    Floor,
    OpenAsk,
    Participant,
    Phase,
    Setup,
    TurnMeta,
)
from handlers.core.state_machine import transition
from handlers.core.turns.steps import Step
from tests.handlers.conftest import ALICE, proposal

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SEATS = (
    Participant("ag", Backend.AG_RELAY, "AG"),
    Participant("claude", Backend.CLAUDE_CLI, "Claude"),
    Participant("claude-2", Backend.CLAUDE_CLI, "Claude 2"),
)
ROUND = tuple(OpenAsk(seat.id, n) for n, seat in enumerate(SEATS, 1))


def round_one() -> Debate:
    """A free debate's three asks out at once."""
    return Debate(
        id=1,
        proposal=proposal(),
        phase=Phase.SPEAKING,
        created_at=NOW,
        setup=Setup(3, roster=SEATS),
        floor=Floor(round=1, asked=ROUND, speaker="ag"),
    )


def step(debate: Debate, event: Event) -> Step:
    return transition(debate, event, NOW, random.Random(1))


def limit(seat: str, turn: int, seconds: float) -> DebaterFailed:
    return DebaterFailed(seat, turn, FailureKind.LIMIT, "limit", seconds)


def answer(seat: str, turn: int) -> ReplyReceived:
    return ReplyReceived(seat, turn, f"{seat} says", "raw", TurnMeta(cost_usd=0.01))


def test_the_seat_that_hit_the_limit_waits_and_the_others_answers_are_kept() -> None:
    paused = step(round_one(), limit("claude", 2, 600)).debate
    assert paused.phase is Phase.AWAITING_USER and paused.people.paused == "limit"
    assert [a.participant for a in paused.floor.asked if a.paused] == ["claude"]
    kept = step(paused, answer("ag", 1))
    assert kept.turn is not None and kept.turn.number == 1  # stored during the pause
    assert kept.debate.people.paused == "limit"  # still waiting for Claude's reset


def test_a_second_limit_joins_the_pause_at_the_later_reset_without_new_buttons() -> None:
    first = step(round_one(), limit("claude", 2, 600))
    second = step(first.debate, limit("claude-2", 3, 3600))
    assert second.debate.people.pauses == first.debate.people.pauses == 1  # the same pause
    assert second.debate.spend.resumes_at == NOW + timedelta(seconds=3600)
    assert not [e for e in second.effects if isinstance(e, AskBudget)]
    assert [e.at for e in second.effects if isinstance(e, ScheduleResume)] == [
        (NOW + timedelta(seconds=3600)).isoformat()
    ]


def test_resume_asks_only_the_paused_seats_again() -> None:
    paused = step(round_one(), limit("claude", 2, 600)).debate
    going = step(paused, BudgetDecided(ALICE, "resume", at=paused.people.pauses))
    asked = [(e.seat, e.turn) for e in going.effects if isinstance(e, AskDebater)]
    assert asked == [("claude", 2)]  # AG and Claude 2 were never stopped: not asked twice
    assert going.debate.phase is Phase.SPEAKING and not any(
        a.paused for a in going.debate.floor.asked
    )


def test_a_reset_in_milliseconds_pauses_a_week_at_most_and_the_end_clears_the_pause() -> None:
    paused = step(round_one(), limit("claude", 2, 1.8e12)).debate
    assert paused.spend.resumes_at == NOW + timedelta(days=7)
    stopped = step(paused, StopRequested(ALICE)).debate
    assert (
        stopped.phase is Phase.CONCLUDING
        and not stopped.people.paused
        and stopped.spend.resumes_at is None
    )
    assert [(a.participant, a.turn) for a in stopped.floor.late] == [("ag", 1), ("claude-2", 3)]


def test_legacy_pause_without_marks_asks_every_kept_ask_again() -> None:
    legacy = replace(
        round_one(), phase=Phase.AWAITING_USER, people=replace(round_one().people, paused="limit")
    )
    going = step(legacy, BudgetDecided(ALICE, "resume"))
    assert len([e for e in going.effects if isinstance(e, AskDebater)]) == len(ROUND)
