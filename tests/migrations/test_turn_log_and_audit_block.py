"""Migration 0011 converts what debates stored before the engine kept who spoke when and
before the audit notice carried a `block`: the log is rebuilt from the stored turns, and a
queued audit notice's `audit` param becomes its `block`; on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from handlers.core.effects import Notify, PostTurn
from handlers.core.model import AG, CLAUDE, Proposal
from tests.doubles import draft
from tests.migrations.old_rows import stored_before
from tests.tools.wiki.support import turn
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.debates import SqliteStore
from tools.store.turns import INSERT_TURN, turn_row

BEFORE = 10  # the last version that could hold such debates unconverted
NOW = datetime(2026, 12, 2, tzinfo=UTC)
AUDIT = "- Proposition: p95 under 50 ms"
OLD_AUDIT = {"kind": "notify", "key": "adversarial.audit", "params": [["audit", AUDIT]]}
OTHER = {"kind": "notify", "key": "debate.opening", "params": [["seat", "claude"]]}


async def test_an_old_debate_gets_its_log_and_an_old_audit_notice_its_block(
    database_target: str,
) -> None:
    dialect = "postgres" if is_postgres_url(database_target) else "sqlite"
    old = await Database.open(database_target, bundled_migrations(dialect)[:BEFORE])
    try:
        proposal = Proposal(1, "캐시", "어느 쪽?", "r", 0.9, "", (7,), ("앨리스",))
        debate = await stored_before(old, draft(proposal, 3, NOW))
        fresh = await stored_before(old, draft(proposal, 3, NOW))
        for number, seat in ((2, AG), (1, CLAUDE)):  # stored out of order: read in order
            stored = turn(number, f"turn {number}", seat, debate.id)
            await old.execute(INSERT_TURN, turn_row(stored, dialect == "postgres"))
        row = await old.fetch_one("SELECT state FROM debates WHERE id = ?", (debate.id,))
        assert row is not None
        state = json.loads(row["state"])
        del state["log"]  # as versions before the log wrote it
        state["turns"] = 2
        queue = [[1, OLD_AUDIT], [2, OTHER], [3, {"kind": "post_turn", "turn": 2}]]
        await old.execute(
            "UPDATE debates SET state = ?, effects = ?, effect_seq = 3 WHERE id = ?",
            (json.dumps(state, ensure_ascii=False), json.dumps(queue), debate.id),
        )
    finally:
        await old.close()
    db = await Database.open(database_target)
    try:
        assert 11 in await db.applied_versions()
        store = SqliteStore(db)
        moved = await store.load(debate.id)
        assert moved.floor.log == ((1, CLAUDE), (2, AG))
        assert moved.proposal.topic == "캐시"
        assert await store.pending_effects(debate.id, 10) == [
            (1, Notify("adversarial.audit", (("block", AUDIT),))),
            (2, Notify("debate.opening", (("seat", "claude"),))),  # kept as it was
            (3, PostTurn(2)),
        ]
        assert (await store.load(fresh.id)).floor.log == ()  # no turns: nothing to rebuild
    finally:
        await db.close()
