"""Migration 0013 records each debate's server as a column, taken from the stored proposal
where it names one (a snowflake past 2^53 kept exactly), on SQLite and on PostgreSQL; a state
without one (before 0008) is left with no server, until the server holding its channel claims
it. The store answers a debate of another server as no debate at all."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from handlers.core.model import Proposal
from tests.doubles import draft
from tests.migrations.old_rows import stored_before
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.debates import DebateNotFound, SqliteStore

BEFORE = 12  # the last version without the column
GUILD = 1234567890123456789  # a Discord snowflake past 2^53: no float may carry it
OTHER = 42
NOW = datetime(2026, 12, 3, tzinfo=UTC)
GUILD_OF = "SELECT guild_id FROM debates WHERE id = ?"


def _proposal(channel_id: int, guild_id: int) -> Proposal:
    return Proposal(
        channel_id, "캐시", "어느 쪽?", "r", 0.9, "", (7,), ("앨리스",), guild_id=guild_id
    )


async def test_each_debate_keeps_its_server_and_an_unrecorded_one_is_claimed_by_its_channel(
    database_target: str,
) -> None:
    dialect = "postgres" if is_postgres_url(database_target) else "sqlite"
    old = await Database.open(database_target, bundled_migrations(dialect)[:BEFORE])
    try:
        heard = await stored_before(old, draft(_proposal(10, GUILD), 3, NOW))
        elsewhere = await stored_before(old, draft(_proposal(20, OTHER), 3, NOW))
        unrecorded = await stored_before(old, draft(_proposal(11, 0), 3, NOW))
        row = await old.fetch_one("SELECT state FROM debates WHERE id = ?", (unrecorded.id,))
        assert row is not None
        state = json.loads(row["state"])
        del state["proposal"]["guild_id"]  # as versions before 0008 wrote it
        await old.execute(
            "UPDATE debates SET state = ? WHERE id = ?", (json.dumps(state), unrecorded.id)
        )
    finally:
        await old.close()
    db = await Database.open(database_target)
    try:
        assert 13 in await db.applied_versions()
        for debate, guild in ((heard, GUILD), (elsewhere, OTHER), (unrecorded, 0)):
            found = await db.fetch_one(GUILD_OF, (debate.id,))
            assert found is not None and int(found[0]) == guild
        store = SqliteStore(db)
        assert await store.open_ids(GUILD) == [heard.id]
        assert await store.open_ids() == [heard.id, elsewhere.id, unrecorded.id]  # the console
        assert (await store.load_in(heard.id, GUILD)).proposal.topic == "캐시"
        with pytest.raises(DebateNotFound):
            await store.load_in(heard.id, OTHER)  # told exactly as an unknown number
        # The server holding channel 11 is given its debate; a server without it is not.
        assert await store.claim_unrecorded(OTHER, [20, 21]) == 0
        assert await store.claim_unrecorded(GUILD, [10, 11, 12]) == 1
        assert await store.open_ids(GUILD) == [heard.id, unrecorded.id]
        assert await store.claim_unrecorded(GUILD, [10, 11, 12]) == 0  # once
    finally:
        await db.close()


async def test_a_new_debate_records_the_server_it_was_proposed_in(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        store = SqliteStore(db)
        debate = await store.create(draft(_proposal(10, GUILD), 3, NOW), timedelta(hours=1), ())
        found = await db.fetch_one(GUILD_OF, (debate.id,))
        assert found is not None and int(found[0]) == GUILD
        assert await store.open_ids(GUILD) == [debate.id] and await store.open_ids(OTHER) == []
    finally:
        await db.close()
