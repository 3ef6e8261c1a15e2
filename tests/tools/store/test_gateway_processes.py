"""What keeps several gateway processes on one database from acting twice: one card waits per
channel whichever process stores it, and each Discord event is claimed by one process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from handlers.core.model import Phase
from tests.doubles import draft
from tests.handlers.conftest import proposal
from tools.store.claims import KEEP_MS, DatabaseClaims, snowflake_at, wall_ms
from tools.store.db import Database
from tools.store.debates import SqliteStore

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TTL = timedelta(minutes=30)


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


async def test_one_card_waits_in_a_channel_until_it_is_answered(db: Database) -> None:
    store = SqliteStore(db)
    first = await store.create(draft(proposal("Redis or LRU"), 3, NOW), TTL, ())
    assert first is not None
    assert await store.create(draft(proposal("Kafka or SQS"), 3, NOW), TTL, ()) is None
    elsewhere = await store.create(draft(proposal("Kafka or SQS", channel=2), 3, NOW), TTL, ())
    assert elsewhere is not None  # another channel has its own card

    await store.save_step(replace(first, phase=Phase.DECLINED), (), None, NOW)
    again = await store.create(draft(proposal("Kafka or SQS"), 3, NOW), TTL, ())
    assert again is not None  # the first is answered: the channel may get a card again
    assert await store.waiting_cards(1) == 1


async def test_two_processes_storing_a_card_at_once_store_one(postgres_url: str) -> None:
    processes = [await Database.open(postgres_url) for _ in "ab"]
    try:
        made = await asyncio.gather(
            *(SqliteStore(db).create(draft(proposal(), 3, NOW), TTL, ()) for db in processes * 4)
        )
        assert len([debate for debate in made if debate is not None]) == 1
        row = await processes[0].fetch_one("SELECT count(*) FROM debates")
        assert row is not None and row[0] == 1
    finally:
        for db in processes:
            await db.close()


async def test_an_event_is_claimed_by_one_process(database_target: str) -> None:
    processes = [await Database.open(database_target) for _ in "ab"]
    try:
        claims = [DatabaseClaims(db) for db in processes]
        message = snowflake_at(wall_ms())
        first = await asyncio.gather(*(c.first(message + n) for n in range(5) for c in claims))
        assert first.count(True) == 5  # each of the five events, once
        assert not await claims[0].first(message)  # and never again
    finally:
        for db in processes:
            await db.close()


async def test_claims_older_than_a_day_are_dropped(db: Database) -> None:
    now = wall_ms()
    claims = DatabaseClaims(db, now_ms=lambda: now)
    assert await claims.first(snowflake_at(now - KEEP_MS - 1000))  # an old message's
    assert await claims.first(snowflake_at(now))
    row = await db.fetch_one("SELECT count(*) FROM gateway_claims")
    assert row is not None and row[0] == 1
