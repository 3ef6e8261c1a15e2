"""Migration 0012 renames the adversarial route's stored reasons from the seed's English to
their locale names, on SQLite and on PostgreSQL; the route stays a JSON text, the other
outputs stay as they were, and the debate reads its reasons in every language as before."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from handlers.core.formats.adversarial.audit import Intake, Route, Tier
from handlers.core.model import Proposal
from tests.doubles import draft
from tests.migrations.old_rows import stored_before
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.debates import SqliteStore

NAMED = 12  # the first version that stores the reasons' names
NOW = datetime(2026, 12, 2, tzinfo=UTC)
THIN = {
    "tier": "LITE",
    "reasons": ["tradeoffs or multi-factor evaluation", "evidence=1 justifies LITE only"],
    "auto": True,
    "intake": "context-thin",
    "thin": ["KNOWN_GAPS omitted: treated as unknown"],
}
READY = {
    "tier": "LITE",
    "reasons": ["bounded binary choice", "evidence=4 (<= 6)"],
    "auto": True,
    "intake": "debate-ready",
    "thin": [],
}
OTHER = ["answer:advocate", '[POSITION] "requested" stays as written']


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            THIN,
            Route(Tier.LITE, ("multi_factor", "lite_only"), True, Intake.THIN, ("gaps_omitted",)),
        ),
        (READY, Route(Tier.LITE, ("bounded", "within_six"), True, Intake.READY)),
    ],
)
async def test_stored_reasons_become_their_names(
    database_target: str, old: dict[str, object], new: Route
) -> None:
    dialect = "postgres" if is_postgres_url(database_target) else "sqlite"
    earlier = [m for m in bundled_migrations(dialect) if m[0] < NAMED]
    before = await Database.open(database_target, earlier)
    try:
        proposal = Proposal(1, "캐시", "어느 쪽?", "r", 0.9, "", (7,), ("앨리스",))
        debate = await stored_before(before, draft(proposal, 3, NOW))
        row = await before.fetch_one("SELECT state FROM debates WHERE id = ?", (debate.id,))
        assert row is not None
        state = json.loads(row["state"])
        state["outputs"] = [OTHER, ["route", json.dumps(old)]]
        await before.execute(
            "UPDATE debates SET state = ? WHERE id = ?",
            (json.dumps(state, ensure_ascii=False), debate.id),
        )
    finally:
        await before.close()
    db = await Database.open(database_target)
    try:
        assert NAMED in await db.applied_versions()
        moved = await SqliteStore(db).load(debate.id)
        assert moved.moderation.outputs[0] == tuple(OTHER)
        assert Route.read(moved.output_of("route") or "") == new
    finally:
        await db.close()
