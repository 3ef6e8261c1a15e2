"""Kill the engine before each port call in turn, restart it on the same file, and finish.

The doubles stand for the outside world, so they live across the restart; `Crash` is a
BaseException, so nothing in the product can swallow it, as with a killed process.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from handlers.core.events import ProposalApproved
from handlers.core.model import Phase
from tests.handlers.conftest import ALICE, Rig, proposal


async def _drive(rig: Rig) -> tuple[int, bool]:
    """Propose, approve, run to the end; restart once if the plan crashed the engine."""
    restarted = False

    async def settle(debate_id: int) -> None:
        nonlocal restarted
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        if rig.plan.fired and not restarted:
            restarted = True
            await rig.rebuild()
            await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)

    debate = await rig.h.propose(proposal())
    assert debate is not None
    await settle(debate.id)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await settle(debate.id)
    return debate.id, restarted


async def _count_calls(tmp_path: Path) -> int:
    rig = Rig(tmp_path / "dry.sqlite3")
    await rig.start()
    try:
        await _drive(rig)
    finally:
        await rig.stop()
    return rig.plan.calls


async def test_every_crash_point_resumes_without_loss_or_duplication(tmp_path: Path) -> None:
    total = await _count_calls(tmp_path)
    assert total > 30  # the plan really covers a whole debate
    for at in range(1, total + 1):
        rig = Rig(tmp_path / f"crash-{at}.sqlite3")
        rig.plan.at = at
        await rig.start()
        try:
            debate_id, restarted = await _drive(rig)
            assert restarted, f"no crash at call {at}"
            debate = await rig.h.get(debate_id)
            where = f"crash at call {at} ({rig.plan.log[at - 1]})"
            assert debate.phase is Phase.CONCLUDED, where
            turns = await rig.h._turns.last_turns(debate_id, 100)
            assert [t.number for t in turns] == list(range(1, 7)), where
            assert sorted(rig.room.turn_posts.items()) == [
                ((debate_id, n), 1) for n in range(1, 7)
            ], where
            assert all(count == 1 for count in rig.wiki.keys.values()), where
            assert len(rig.room.conclusions) == 1, where
            assert rig.room.cards == [debate_id] and len(rig.room.opened) == 1, where
        finally:
            await rig.stop()


@pytest.mark.parametrize("at", [3, 9])
async def test_a_crash_during_a_turn_asks_the_same_turn_again(tmp_path: Path, at: int) -> None:
    rig = Rig(tmp_path / "turn.sqlite3")
    rig.plan.at = at
    await rig.start()
    try:
        debate_id, _ = await _drive(rig)
        asked = sorted(r.turn for d in rig.debaters.values() for r in d.requests)
        assert asked == list(range(1, 7))  # the crashed ask never reached the debater
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
    finally:
        await rig.stop()
