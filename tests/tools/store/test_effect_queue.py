"""A debate's effect queue lives in its row, on SQLite and on PostgreSQL: a step is one write,
and a store opened afresh on the database finds the same queue."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from handlers.core.effects import Judge, PostTurn, UpdateStatus
from handlers.core.model import Phase
from tests.doubles import draft
from tests.handlers.conftest import proposal
from tools.store.db import Database
from tools.store.db_sqlite import SqliteDatabase
from tools.store.debates import SqliteStore

NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)


async def test_a_step_is_one_write_and_its_queue_outlives_the_process(
    database_target: str,
) -> None:
    db = await Database.open(database_target)
    statements: list[str] = []
    sqlite = isinstance(db, SqliteDatabase)  # SQLite's trace hook counts the statements
    try:
        store = SqliteStore(db)
        made = draft(proposal(), 3, NOW)
        debate = await store.create(made, timedelta(minutes=30), (UpdateStatus(),))
        [(first_id, _)] = await store.pending_effects(debate.id, 10)
        if sqlite:
            await db._conn.set_trace_callback(statements.append)

        moved = replace(debate, phase=Phase.DECLINED)
        await store.save_step(moved, (PostTurn(1), Judge(1)), None, NOW, completed_effect=first_id)
        writes = [s for s in statements if not s.lstrip().startswith("SELECT")]
        assert not sqlite or (len(writes) == 1 and "UPDATE debates" in writes[0])
        queued = await store.pending_effects(debate.id, 10)
        assert [effect for _, effect in queued] == [PostTurn(1), Judge(1)]

        statements.clear()
        await store.complete_effects(debate.id, [queued[0][0]], NOW)
        writes = [s for s in statements if not s.lstrip().startswith("SELECT")]
        assert not sqlite or (len(writes) == 1 and "SET effects" in writes[0])
        statements.clear()
        await store.complete_effects(debate.id, [queued[0][0]], NOW)
        assert all(s.lstrip().startswith("SELECT") for s in statements)  # done: no write
    finally:
        await db.close()

    reopened = await Database.open(database_target)
    try:
        fresh = SqliteStore(reopened)
        assert await fresh.pending_effects(debate.id, 10) == [queued[1]]
        assert await fresh.debates_with_work() == [debate.id]
        assert (await fresh.load(debate.id)).phase is Phase.DECLINED
    finally:
        await reopened.close()
