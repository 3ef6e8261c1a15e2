"""The store's kept turns never diverge from the database (SQLite, then PostgreSQL).

At every port call (each one a possible crash point) the store's kept turns are
compared with what a separate connection reads from the database, in runs that crash before
each port call in turn and resume after a rebuild.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from handlers.core.effects import Effect
from handlers.core.events import ProposalApproved, ProposalDeclined
from handlers.core.model import Debate, Phase, Turn
from handlers.debate_handler import DebateHandler
from tests.conftest import STORES
from tests.handlers.conftest import ALICE, TARGETS, Rig, proposal
from tests.handlers.doubles import CrashPlan
from tests.postgres import SyncReader
from tools.store.debates import SqliteStore
from tools.store.turns import turn_of

_DEBATE = TypeAdapter(Debate)


@pytest.fixture(autouse=True, params=STORES)
def store_kind(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test's rigs on SQLite, then on PostgreSQL."""
    kind = str(request.param)
    TARGETS.reset(request.getfixturevalue("postgres_server") if kind == "postgres" else None)
    yield kind
    TARGETS.reset()


class _Reader:
    """A second connection to the rig's database: sqlite3 on the file, or PostgreSQL's."""

    def __init__(self, target: str) -> None:
        self._pg = SyncReader(target) if target.startswith("postgresql://") else None
        self._lite = None if self._pg else sqlite3.connect(target)
        if self._lite is not None:
            self._lite.row_factory = sqlite3.Row

    def one(self, sql: str, *params: Any) -> Any:
        if self._pg is not None:
            return self._pg.fetch_one(sql, params)
        assert self._lite is not None
        return self._lite.execute(sql, params).fetchone()

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
        if self._lite is not None:
            self._lite.close()


@dataclass
class CheckingPlan(CrashPlan):
    """A crash plan that first compares the kept state with the file at each port call."""

    rig: Rig | None = None
    reader: _Reader | None = None
    checks: int = 0
    mismatches: list[str] = field(default_factory=list)

    def tick(self, name: str) -> None:
        if self.rig is not None and self.rig.handler is not None:
            self._compare(name)
        super().tick(name)

    def _compare(self, name: str) -> None:
        assert self.rig is not None and self.rig.handler is not None
        handler = self.rig.handler
        store = handler._store
        assert isinstance(store, SqliteStore)
        read = self.reader
        assert read is not None
        for debate_id, turns in store._turns._kept.items():
            for number, turn in turns.items():
                found = read.one(
                    "SELECT * FROM turns WHERE debate_id = ? AND number = ?", debate_id, number
                )
                if turn_of(found) != turn:
                    self.mismatches.append(f"{name}: turn {number}")
        self.checks += 1


async def _drive(rig: Rig) -> int:
    """Propose, approve, run to the end, rebuilding once after the planned crash."""

    async def settle(debate_id: int) -> None:
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        if rig.plan.fired and rig.plan.at is not None:
            rig.plan.at = None
            await rig.rebuild()
            await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)

    debate = await rig.h.propose(proposal())
    assert debate is not None
    await settle(debate.id)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await settle(debate.id)
    return debate.id


async def _run(path: Path, at: int | None) -> CheckingPlan:
    plan = CheckingPlan()
    rig = Rig(path, plan=plan)
    plan.rig, plan.at = rig, at
    await rig.start()
    plan.reader = _Reader(await TARGETS.of(path))
    try:
        debate_id = await _drive(rig)
        fresh = await SqliteStore(rig.h._store._db).load(debate_id)  # type: ignore[attr-defined]
        assert fresh.phase is Phase.CONCLUDED
        assert await rig.h.get(debate_id) == fresh
    finally:
        plan.reader.close()
        await rig.stop()
    return plan


async def test_kept_state_matches_the_file_at_every_crash_point(tmp_path: Path) -> None:
    dry = await _run(tmp_path / "dry.sqlite3", None)
    assert dry.checks == dry.calls > 30 and not dry.mismatches
    for at in range(1, dry.calls + 1):
        plan = await _run(tmp_path / f"crash-{at}.sqlite3", at)
        assert plan.fired, f"no crash at call {at}"
        assert plan.checks >= dry.calls and not plan.mismatches, (at, plan.mismatches)


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
    handler._store = store
    handler._runner._store = store


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
