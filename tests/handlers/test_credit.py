"""Claude's limits through the real engine and store (SQLite and PostgreSQL): a usage limit
pauses the debate until its reset, its timer is stored and outlives a restart, and it fires
once; Resume at the pause asks again at once. The real CLI's side is tests/e2e/test_credit_e2e."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from handlers.core.effects import Effect
from handlers.core.events import BudgetDecided, ProposalApproved, StopRequested, TimerDue
from handlers.core.model import AG, CLAUDE, GEMINI, Debate, FailureKind, Phase, Turn
from handlers.core.turns.steps import LIMIT_PAUSES
from handlers.ports import DebaterError
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.test_boardroom_flow import board
from tools.store.db import Database
from tools.store.debates import SqliteStore

LIMIT = DebaterError(FailureKind.LIMIT, "You've hit your 5-hour limit", retry_after=3600)


async def idle(rig: Rig, debate_id: int) -> None:
    await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)


async def limited(rig: Rig) -> int:
    """A debate whose Claude hits its usage limit at its first ask."""
    rig.debaters[CLAUDE].enqueue(LIMIT)
    made = await rig.h.propose(proposal())
    assert made is not None
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    return made.id


async def test_credit_the_limit_timer_outlives_a_restart_and_resumes_once(rig: Rig) -> None:
    debate_id = await limited(rig)
    paused = await rig.h.get(debate_id)
    assert paused.phase is Phase.AWAITING_USER and paused.people.paused == "limit"
    assert paused.spend.resumes_at == rig.clock.now() + timedelta(seconds=3600)
    assert await rig.h.fire_due_timers() == []  # not yet

    handler = await rig.rebuild()  # a restart while paused
    await idle(rig, debate_id)
    assert (await handler.get(debate_id)).people.paused == "limit"
    rig.clock.advance(3601)
    assert await handler.fire_due_timers() == [debate_id]
    await idle(rig, debate_id)
    assert await handler.fire_due_timers() == []  # fired once
    ended = await handler.get(debate_id)
    assert (
        ended.phase is Phase.CONCLUDED
        and not ended.people.paused
        and ended.spend.resumes_at is None
    )
    assert len(rig.debaters[CLAUDE].requests) == 1 + ended.setup.max_rounds  # once more per round
    assert "limits.resumed" in rig.room.notice_keys()


async def test_credit_resume_asks_again_at_once_and_the_old_timer_changes_nothing(
    rig: Rig,
) -> None:
    debate_id = await limited(rig)
    asked = len(rig.debaters[CLAUDE].requests)
    got = await rig.h.submit(debate_id, BudgetDecided(ALICE, "extend"))
    assert not got.taken  # a limit's pause takes Resume or Conclude only
    assert (await rig.h.submit(debate_id, BudgetDecided(ALICE, "resume"))).taken
    await idle(rig, debate_id)
    assert len(rig.debaters[CLAUDE].requests) > asked
    done = await rig.h.get(debate_id)
    rig.clock.advance(3601)
    assert await rig.h.fire_due_timers() == []  # the pause's timer ended with the debate
    await idle(rig, debate_id)
    assert await rig.h.get(debate_id) == done


class PauseWatch(SqliteStore):
    """The real store; `paused` is set once a step that pauses on a limit is committed."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.paused = asyncio.Event()

    async def save_step(
        self, debate: Debate, effects: Sequence[Effect], turn: Turn | None, *a: Any, **kw: Any
    ) -> None:
        await super().save_step(debate, effects, turn, *a, **kw)
        if debate.people.paused in LIMIT_PAUSES:
            self.paused.set()


async def paused_mid_round(folder: Path) -> tuple[Rig, int]:
    """A boardroom's blind round 1: Claude hits its limit while the other members are still
    writing; they answer only once the pause is stored."""
    watch: list[PauseWatch] = []

    def store(db: Database) -> PauseWatch:
        watch.append(PauseWatch(db))
        return watch[-1]

    rig = board(folder / "board.sqlite3", make_store=store)
    rig.debaters[CLAUDE].enqueue(LIMIT)
    for member in (AG, GEMINI):
        written = rig.debaters[member].by_round[1]

        async def after_the_pause(text: str = written) -> str:
            await watch[-1].paused.wait()
            return text

        rig.debaters[member].enqueue(after_the_pause)
    await rig.start()
    made = await rig.h.propose(proposal())
    assert made is not None
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    return rig, made.id


async def test_a_limit_mid_round_keeps_the_answers_still_arriving_and_holds_them(
    tmp_path: Path,
) -> None:
    """The members still writing when Claude's limit pauses the blind round are not cut off:
    their paid answers are stored as they arrive, and still held back (round 1 is blind)."""
    rig, debate_id = await paused_mid_round(tmp_path)
    try:
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.AWAITING_USER and debate.people.paused == "limit"
        stored = await rig.h._turns.last_turns(debate_id, 10)
        assert sorted(t.seat for t in stored) == [AG, GEMINI]
        assert not rig.room.turn_posts  # the round is blind until every member is in
        assert [a.participant for a in debate.floor.asked] == [CLAUDE] and debate.floor.asked[
            0
        ].paused
    finally:
        await rig.stop()


@pytest.mark.parametrize("ended_by", ["conclude", "stop"])
async def test_the_people_ending_a_limit_pause_post_and_log_every_answer_given(
    tmp_path: Path, ended_by: str
) -> None:
    rig, debate_id = await paused_mid_round(tmp_path)
    try:
        event = BudgetDecided(ALICE, "conclude") if ended_by == "conclude" else StopRequested(ALICE)
        assert (await rig.h.submit(debate_id, event)).taken
        await idle(rig, debate_id)
        ended = await rig.h.get(debate_id)
        assert (
            ended.phase.is_terminal and not ended.people.paused and ended.spend.resumes_at is None
        )
        stored = await rig.h._turns.last_turns(debate_id, 10)
        assert sorted(t.seat for t in stored) == [AG, GEMINI]
        for turn in stored:
            assert rig.room.turn_posts[(debate_id, turn.number)] == 1
            assert rig.wiki.keys[f"{debate_id}:round-log:{turn.number}"] == 1
    finally:
        await rig.stop()


async def test_a_debate_stopped_in_a_limit_pause_stays_stopped_when_its_reset_comes(
    rig: Rig,
) -> None:
    debate_id = await limited(rig)
    assert (await rig.h.submit(debate_id, StopRequested(ALICE))).taken
    await idle(rig, debate_id)
    stopped = await rig.h.get(debate_id)
    assert stopped.phase is Phase.STOPPED
    rig.clock.advance(3601)
    assert await rig.h.fire_due_timers() == []  # the reset's timer ended with the debate
    await idle(rig, debate_id)
    assert await rig.h.get(debate_id) == stopped
    assert "limits.resumed" not in rig.room.notice_keys()


async def test_a_reset_timer_that_fires_after_the_end_changes_nothing(rig: Rig) -> None:
    """A timer read as due just before the debate ended, handed over just after it: the
    ended debate ignores it (no resume, nothing archived)."""
    debate_id = await limited(rig)
    assert (await rig.h.submit(debate_id, StopRequested(ALICE))).taken
    await idle(rig, debate_id)
    stopped = await rig.h.get(debate_id)
    result = await rig.h.submit(debate_id, TimerDue())
    await idle(rig, debate_id)
    assert result.debate == stopped and await rig.h.get(debate_id) == stopped


@pytest.mark.parametrize(
    ("retry_after", "wait_s"),
    [
        (1.7e12, 7 * 24 * 3600),  # a reset in milliseconds read as seconds: a week at most
        (2.5e11, 7 * 24 * 3600),  # past the calendar's end
        (float("inf"), 3600),  # no usable time: tried again in an hour, Resume sooner
        (float("nan"), 3600),
        (-600.0, 60),  # already past: tried again in a minute, not at once
        (0.0, 60),
    ],
)
async def test_a_limit_reset_out_of_range_pauses_within_bounds(
    rig: Rig, retry_after: float, wait_s: int
) -> None:
    """No reset figure raises (an OverflowError in the limit step used to leave the debate
    stuck in 'speaking', asked again at every start): each pauses with a time it can keep."""
    rig.debaters[CLAUDE].enqueue(DebaterError(FailureKind.LIMIT, "limit", retry_after))
    made = await rig.h.propose(proposal())
    assert made is not None
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    paused = await rig.h.get(made.id)
    assert paused.phase is Phase.AWAITING_USER and paused.people.paused == "limit"
    assert paused.spend.resumes_at == rig.clock.now() + timedelta(seconds=wait_s)
    assert not await rig.h._effects.pending_effects(made.id, 1)  # nothing left failing


async def test_a_rate_limit_retry_after_out_of_range_is_waited_at_most_fifteen_minutes(
    rig: Rig,
) -> None:
    rig.debaters[CLAUDE].enqueue(DebaterError(FailureKind.RATE_LIMITED, "429", 1e12))
    made = await rig.h.propose(proposal())
    assert made is not None
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    assert max(rig.clock.slept) == 900  # and then asked again
    assert (await rig.h.get(made.id)).phase.is_terminal
