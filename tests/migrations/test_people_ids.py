"""Migration 0006 renames the people of a stored proposal (`participants`, `participant_names`
become `people_ids`, `people_names`) in every debate's state, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from handlers.core.model import Proposal
from tests.doubles import draft
from tests.migrations.old_rows import stored_before
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.debates import SqliteStore

BEFORE = 5  # the last version that stored the old names
BIG_ID = 1234567890123456789  # a Discord snowflake: past 2^53, so no float may carry it
NOW = datetime(2026, 12, 1, tzinfo=UTC)
STATE = "SELECT state FROM debates WHERE id = ?"
WRITE_STATE = "UPDATE debates SET state = ? WHERE id = ?"


def _as_before(state: str, *, named: bool) -> str:
    """The state as versions up to 0005 wrote it (without `participant_names` before it
    existed)."""
    whole = json.loads(state)
    proposal = whole["proposal"]
    proposal["participants"] = proposal.pop("people_ids")
    names = proposal.pop("people_names")
    if named:
        proposal["participant_names"] = names
    return json.dumps(whole, ensure_ascii=False)


async def _old_debate(db: Database, people: tuple[int, ...], *, named: bool) -> int:
    proposal = Proposal(
        1, "캐시", "어느 쪽?", "r", 0.9, "", people, ("앨리스", "밥")[: len(people)]
    )
    debate = await stored_before(db, draft(proposal, 3, NOW))
    row = await db.fetch_one(STATE, (debate.id,))
    assert row is not None
    await db.execute(WRITE_STATE, (_as_before(row["state"], named=named), debate.id))
    return debate.id


async def test_stored_proposals_name_their_people_after_the_migration(
    database_target: str,
) -> None:
    dialect = "postgres" if is_postgres_url(database_target) else "sqlite"
    old = await Database.open(database_target, bundled_migrations(dialect)[:BEFORE])
    try:
        named = await _old_debate(old, (BIG_ID, 102), named=True)
        unnamed = await _old_debate(old, (7,), named=False)
    finally:
        await old.close()
    db = await Database.open(database_target)
    try:
        assert 6 in await db.applied_versions()
        store = SqliteStore(db)
        first, second = await store.load(named), await store.load(unnamed)
        assert first.people_ids == (BIG_ID, 102) and first.proposal.people_names == ("앨리스", "밥")
        assert second.people_ids == (7,) and second.proposal.people_names == ()
        for debate_id in (named, unnamed):
            row = await db.fetch_one(STATE, (debate_id,))
            assert row is not None
            proposal = json.loads(row["state"])["proposal"]
            assert "participants" not in proposal and "participant_names" not in proposal
        assert first.proposal.topic == "캐시" and first.setup.max_rounds == 3  # the rest kept
    finally:
        await db.close()
