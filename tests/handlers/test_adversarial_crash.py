"""An adversarial FULL debate killed before each port call in turn (between the probes and
the Challenger, before the Validator, and everywhere else), restarted on the same file: it
finishes with nothing lost and nothing posted twice. And Stop at each step."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from handlers.core.events import ProposalApproved, StopRequested
from handlers.core.formats.adversarial.rules import RECONCILER_ID
from handlers.core.model import AG, CLAUDE, Phase
from tests.handlers.adversarial_script import adversarial_rig, debater, intake, tasks
from tests.handlers.conftest import ALICE, Rig, proposal


def _full(path: Path) -> Rig:
    rig = adversarial_rig(path, "en", ticking_store=True)
    tasks(rig, intake(4, high_stakes=True))
    return rig


async def _drive(rig: Rig) -> tuple[int, bool]:
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


async def _dry_log(tmp_path: Path) -> list[str]:
    rig = _full(tmp_path / "dry.sqlite3")
    await rig.start()
    try:
        await _drive(rig)
    finally:
        await rig.stop()
    return rig.plan.log


async def test_every_crash_point_of_a_full_debate_resumes_without_duplicates(
    tmp_path: Path,
) -> None:
    log = await _dry_log(tmp_path)
    assert "perform:validator" in log and "perform:probe-cost" in log
    probes_done = max(log.index("perform:probe-cost"), log.index("perform:probe-alternatives"))
    assert any(name.startswith("stored:") for name in log[probes_done:])  # Challenger after
    for at in range(1, len(log) + 1):
        rig = _full(tmp_path / f"crash-{at}.sqlite3")
        rig.plan.at = at
        await rig.start()
        try:
            debate_id, restarted = await _drive(rig)
            where = f"crash at call {at} ({log[at - 1]})"
            assert restarted, where
            assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED, where
            turns = await rig.h._turns.last_turns(debate_id, 100)
            assert [t.number for t in turns] == [1, 2, 3], where
            assert all(n == 1 for n in rig.room.turn_posts.values()), where
            assert all(n == 1 for n in rig.wiki.keys.values()), where
            assert len(rig.room.summaries) == 1 and rig.room.conclusions == [], where
            pages = [k for k in rig.wiki.keys if k.endswith(":page:debate-result")]
            assert pages, where
        finally:
            await rig.stop()


async def _blocked(rig: Rig, where: str) -> tuple[asyncio.Event, asyncio.Event]:
    """Make the step `where` wait until released; returns (started, release)."""
    started, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        started.set()
        await release.wait()

    if where in ("intake", "probe-cost", "validator"):
        rig.moderator.task_hooks[where] = hold
    else:
        for seat in (AG, CLAUDE, RECONCILER_ID):
            debater(rig, seat).hooks[where] = hold
    return started, release


@pytest.mark.parametrize(
    "where", ["intake", "advocate", "challenger", "probe-cost", "reconciler", "validator"]
)
async def test_stop_at_each_step_ends_the_debate_and_nothing_runs_after(
    tmp_path: Path, where: str
) -> None:
    rig = _full(tmp_path / f"stop-{where}.sqlite3")
    started, _release = await _blocked(rig, where)
    await rig.start()
    try:
        debate = await rig.h.propose(proposal())
        assert debate is not None
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        await rig.h.submit(debate.id, ProposalApproved(ALICE))
        await asyncio.wait_for(started.wait(), 10)
        await rig.h.submit(debate.id, StopRequested(ALICE))
        # Once the stop is stored, nothing more starts (what its step had started is ended).
        asked = sum(len(d.requests) for d in rig.debaters.values())
        performed = len(rig.moderator.task_requests)
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        assert (await rig.h.get(debate.id)).phase is Phase.STOPPED
        assert "debate.stopped_by" in rig.room.notice_keys()
        assert len(rig.room.conclusions) == 1
        assert sum(len(d.requests) for d in rig.debaters.values()) == asked
        assert len(rig.moderator.task_requests) == performed
    finally:
        await rig.stop()
