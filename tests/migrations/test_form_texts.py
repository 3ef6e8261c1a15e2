"""Migration 0007 moves the text stored as the card's evidence option into `added` (the
forms' per-person texts), without a name, on SQLite and on PostgreSQL; other options stay."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

from handlers.core.formats.adversarial.briefs import EVIDENCE
from handlers.core.model import Added, Proposal
from tests.doubles import draft
from tests.migrations.old_rows import stored_before
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.debates import SqliteStore

BEFORE = 6  # the last version that stored a form's text as an option
NOW = datetime(2026, 12, 2, tzinfo=UTC)
TEXT = 'p99 120 ms\nCONSTRAINTS: 월 예산 10만 원 이하 "따옴표"'
OPTIONS = [[EVIDENCE, TEXT], ["ledger.stance", "neutral"]]


async def test_a_stored_evidence_option_becomes_an_unnamed_form_text(
    database_target: str,
) -> None:
    dialect = "postgres" if is_postgres_url(database_target) else "sqlite"
    old = await Database.open(database_target, bundled_migrations(dialect)[:BEFORE])
    try:
        proposal = Proposal(1, "캐시", "어느 쪽?", "r", 0.9, "", (7,), ("앨리스",))
        debate = await stored_before(old, draft(proposal, 3, NOW))
        row = await old.fetch_one("SELECT state FROM debates WHERE id = ?", (debate.id,))
        assert row is not None
        state = json.loads(row["state"])
        del state["added"]  # as versions up to 0006 wrote it
        state["options"] = OPTIONS
        await old.execute(
            "UPDATE debates SET state = ? WHERE id = ?",
            (json.dumps(state, ensure_ascii=False), debate.id),
        )
    finally:
        await old.close()
    db = await Database.open(database_target)
    try:
        assert 7 in await db.applied_versions()
        moved = await SqliteStore(db).load(debate.id)
        assert moved.setup.added == (Added(EVIDENCE, 0, "", TEXT),)
        assert moved.setup.options == (("ledger.stance", "neutral"),)
        assert moved.added_text(EVIDENCE) == TEXT  # read as before: every character
        assert (
            replace(moved, setup=replace(moved.setup, added=(), options=())).proposal.topic
            == "캐시"
        )
    finally:
        await db.close()
