"""Migration 0014 lets one card wait per channel: a channel that got two at once before (two
gateway processes proposed the same chat) keeps its first, the other is expired; on SQLite and
on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from handlers.core.effects import PostCard
from handlers.core.model import Phase
from tests.doubles import draft
from tests.handlers.conftest import proposal
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.debates import SqliteStore

VERSION = 14
NOW = datetime(2026, 12, 3, tzinfo=UTC)
TTL = timedelta(hours=1)


async def test_a_second_waiting_card_is_expired_and_a_third_is_refused(
    database_target: str,
) -> None:
    dialect = "postgres" if is_postgres_url(database_target) else "sqlite"
    before = [m for m in bundled_migrations(dialect) if m[0] < VERSION]
    old = await Database.open(database_target, before)
    try:
        store = SqliteStore(old)
        made = [
            await store.create(draft(proposal(topic, channel), 3, NOW), TTL, (PostCard(),))
            for topic, channel in (("Redis or LRU", 1), ("Redis or LRU", 1), ("Kafka", 2))
        ]
    finally:
        await old.close()
    first, twice, elsewhere = (debate.id for debate in made if debate is not None)
    db = await Database.open(database_target)
    try:
        assert VERSION in await db.applied_versions()
        store = SqliteStore(db)
        assert (await store.load(first)).phase is Phase.PROPOSED
        assert (await store.load(elsewhere)).phase is Phase.PROPOSED
        assert (await store.load(twice)).phase is Phase.EXPIRED  # its buttons say "not now"
        assert await store.pending_effects(twice) == []  # nor is its card posted now
        assert await store.pending_effects(first) == [(1, PostCard())]
        assert await store.waiting_cards(1) == 1
        assert await store.create(draft(proposal("Kafka", 1), 3, NOW), TTL, ()) is None
    finally:
        await db.close()
