"""A debate's effect queue lives in its row: a step is one write, the queue is read from
memory, and a store opened afresh on the file finds the same queue."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from handlers.events import Judge, PostTurn, UpdateStatus
from handlers.model import Phase
from tests.handlers.conftest import proposal
from tools.store.db import Database
from tools.store.debates import SqliteStore

NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)


async def test_a_step_is_one_write_and_its_queue_outlives_the_process(tmp_path: Path) -> None:
    path = str(tmp_path / "queue.sqlite3")
    db = await Database.open(path)
    statements: list[str] = []
    try:
        store = SqliteStore(db)
        debate = await store.create(proposal(), 3, NOW, timedelta(minutes=30), (UpdateStatus(),))
        [(first_id, _)] = await store.pending_effects(debate.id, 10)
        await db._conn.set_trace_callback(statements.append)

        moved = replace(debate, phase=Phase.DECLINED)
        await store.save_step(moved, (PostTurn(1), Judge(1)), None, NOW, completed=(first_id,))
        assert statements == [statements[0]] and statements[0].startswith("\nUPDATE debates")
        statements.clear()
        queued = await store.pending_effects(debate.id, 10)
        assert [effect for _, effect in queued] == [PostTurn(1), Judge(1)]
        assert statements == []  # the queue is read from memory

        await store.complete_effects(debate.id, [queued[0][0]], NOW)
        assert len(statements) == 1 and "UPDATE debates SET effects" in statements[0]
        statements.clear()
        await store.complete_effects(debate.id, [queued[0][0]], NOW)
        assert statements == []  # done already: nothing to write
    finally:
        await db.close()

    reopened = await Database.open(path)
    try:
        fresh = SqliteStore(reopened)
        assert await fresh.pending_effects(debate.id, 10) == [queued[1]]
        assert await fresh.debates_with_work() == [debate.id]
        assert (await fresh.load(debate.id)).phase is Phase.DECLINED
    finally:
        await reopened.close()
