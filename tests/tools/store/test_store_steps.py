"""The store's steps on SQLite, then PostgreSQL: a save that fails after committing leaves the
engine reading what was committed, and the effects queue is read in batches."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path

import pytest

from handlers.core.effects import Effect
from handlers.core.events import ProposalApproved, ProposalDeclined
from handlers.core.model import Debate, Phase, Turn
from handlers.debate_handler import DebateHandler
from tests.conftest import STORES
from tests.handlers.conftest import ALICE, TARGETS, Rig, proposal
from tools.store.debates import SqliteStore


@pytest.fixture(autouse=True, params=STORES)
def store_kind(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test's rigs on SQLite, then on PostgreSQL."""
    kind = str(request.param)
    TARGETS.reset(request.getfixturevalue("postgres_server") if kind == "postgres" else None)
    yield kind
    TARGETS.reset()


async def _drive(rig: Rig) -> int:
    """Propose, approve and run to the end."""
    debate = await rig.h.propose(proposal())
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    return debate.id


class CommitsThenFails(SqliteStore):
    """A save that commits and then raises, as a cancellation arriving during COMMIT does."""

    fail_next = False

    async def save_step(
        self,
        debate: Debate,
        effects: Sequence[Effect],
        turn: Turn | None,
        now: datetime,
        completed_effect: int | None = None,
        decided_by: int | None = None,
        command: int | None = None,
    ) -> None:
        await super().save_step(debate, effects, turn, now, completed_effect, decided_by, command)
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("after commit")


def use_store(handler: DebateHandler, store: SqliteStore) -> None:
    """The engine's every part on `store` from now on (the handler and its runner)."""
    handler._debates = handler._effects = store
    handler._cards = handler._timers = handler._turns = store
    handler._runner._timers = handler._runner._log = store


async def test_a_save_that_fails_after_committing_leaves_no_stale_state(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "engine.sqlite3")
    await rig.start()
    assert rig.db is not None
    store = CommitsThenFails(rig.db)
    use_store(rig.h, store)
    try:
        debate = await rig.h.propose(proposal())
        assert debate is not None
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        assert (await rig.h.get(debate.id)).phase is Phase.PROPOSED
        store.fail_next = True
        try:
            await rig.h.submit(debate.id, ProposalDeclined(ALICE))
        except RuntimeError:
            pass
        else:
            raise AssertionError("the save did not fail")
        assert (await rig.h.get(debate.id)).phase is Phase.DECLINED
    finally:
        await rig.stop()


class CountingStore(SqliteStore):
    """Counts reads of the effects queue."""

    reads = 0

    async def pending_effects(self, debate_id: int, limit: int = 1) -> list[tuple[int, Effect]]:
        self.reads += 1
        return await super().pending_effects(debate_id, limit)


async def test_effects_are_read_in_batches(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "engine.sqlite3")
    await rig.start()
    assert rig.db is not None
    store = CountingStore(rig.db)
    use_store(rig.h, store)
    try:
        await _drive(rig)
        # Three rounds of two turns run dozens of effects: one queue read per event (reply,
        # judgement, conclusion) plus a final empty one, never one read per effect.
        assert rig.plan.calls > 30
        assert store.reads <= 2 * 6 + 8, store.reads
    finally:
        await rig.stop()
