"""Migration 0010 lets the gateway's inbox keep one answer per question: commands
stored before it stay pending and are read as they were, and answers stored after it are
kept once per question, on SQLite and on PostgreSQL."""

from __future__ import annotations

from handlers.core.events import EVENT_ADAPTER, StopRequested, UserAnswered
from tests.handlers.conftest import ALICE, CAROL
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.inbox import Inbox

BEFORE = 9  # the last version whose inbox had no `answers`
OLD_INSERT = (
    "INSERT INTO debate_inbox (debate_id, command, payload, created_at) VALUES (?, ?, ?, ?)"
)


async def test_pending_commands_survive_and_answers_are_kept_once_after_it(
    database_target: str,
) -> None:
    dialect = "postgres" if is_postgres_url(database_target) else "sqlite"
    old = await Database.open(database_target, bundled_migrations(dialect)[:BEFORE])
    stop = StopRequested(ALICE)
    try:
        payload = EVENT_ADAPTER.dump_json(stop).decode()
        for _ in range(2):  # two commands of one kind, as before: both stay
            await old.execute(OLD_INSERT, (7, stop.kind, payload, "2026-12-01T00:00:00"))
    finally:
        await old.close()
    db = await Database.open(database_target)
    try:
        assert 10 in await db.applied_versions()
        inbox = Inbox(db)
        assert [c.event for c in await inbox.pending([7])] == [stop, stop]
        first = UserAnswered(ALICE, "Redis", 1)
        assert await inbox.put(7, first, "question:1") is None
        assert await inbox.put(7, UserAnswered(CAROL, "LRU", 1), "question:1") == first
        assert await inbox.count(7) == 3
    finally:
        await db.close()
