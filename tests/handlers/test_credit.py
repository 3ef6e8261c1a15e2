"""Claude's limits through the real engine and store (SQLite and PostgreSQL): a usage limit
pauses the debate until its reset, its timer is stored and outlives a restart, and it fires
once; Resume at the pause asks again at once. The real CLI's side is tests/e2e/test_credit_e2e."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from handlers.core.events import BudgetDecided, ProposalApproved
from handlers.core.model import CLAUDE, FailureKind, Phase
from handlers.ports import DebaterError
from tests.handlers.conftest import ALICE, Rig, proposal

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
    assert paused.phase is Phase.AWAITING_USER and paused.paused == "limit"
    assert paused.resumes_at == rig.clock.now() + timedelta(seconds=3600)
    assert await rig.h.fire_due_timers() == []  # not yet

    handler = await rig.rebuild()  # a restart while paused
    await idle(rig, debate_id)
    assert (await handler.get(debate_id)).paused == "limit"
    rig.clock.advance(3601)
    assert await handler.fire_due_timers() == [debate_id]
    await idle(rig, debate_id)
    assert await handler.fire_due_timers() == []  # fired once
    ended = await handler.get(debate_id)
    assert ended.phase is Phase.CONCLUDED and not ended.paused and ended.resumes_at is None
    assert len(rig.debaters[CLAUDE].requests) == 1 + ended.max_rounds  # once more per round
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
    assert await rig.h.fire_due_timers() == [debate_id]  # the pause's timer, now idle
    await idle(rig, debate_id)
    assert await rig.h.get(debate_id) == done
