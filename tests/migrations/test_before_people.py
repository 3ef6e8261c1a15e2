"""Migration 0009 converts what debates stored before the people's lines and the formats'
steps kept: the people's latest answer becomes a line of theirs, the speaker's wait the
step's ask, and a debater's ask that relayed one turn the turn step that shows it; on SQLite
and on PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from handlers.core.effects import AskDebater, PostTurn
from handlers.core.model import OpenAsk, PeopleLine, Proposal
from tests.doubles import draft
from tests.migrations.old_rows import stored_before
from tools.store.db import Database, bundled_migrations, is_postgres_url
from tools.store.debates import SqliteStore

BEFORE = 8  # the last version that could hold such debates unconverted
NOW = datetime(2026, 12, 2, tzinfo=UTC)
ANSWER = '예, 운영 가능 "따옴표"'
OLD_ASK = {"kind": "ask_debater", "seat": "claude", "turn": 3, "round": 2, "relay_turn": 2}
OLD_FIRST_ASK = {"kind": "ask_debater", "seat": "ag", "turn": 1, "round": 1, "relay_turn": None}
NEW_ASK = {"kind": "ask_debater", "seat": "ag", "turn": 4, "round": 2, "step": "answer"}


async def test_an_old_answer_becomes_a_line_and_an_old_ask_shows_its_turn(
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
        del state["people"]  # as versions before the people's lines wrote it
        state["user_answer"] = ANSWER
        del state["asked"]  # and before steps: the speaker was asked
        state |= {"phase": "speaking", "speaker": "claude", "turns": 2, "fresh_session": True}
        queue = [
            [1, OLD_ASK],
            [2, {"kind": "post_turn", "turn": 2}],
            [3, OLD_FIRST_ASK],
            [4, NEW_ASK],
        ]
        await old.execute(
            "UPDATE debates SET state = ?, effects = ?, effect_seq = 4 WHERE id = ?",
            (json.dumps(state, ensure_ascii=False), json.dumps(queue), debate.id),
        )
    finally:
        await old.close()
    db = await Database.open(database_target)
    try:
        assert 9 in await db.applied_versions()
        store = SqliteStore(db)
        moved = await store.load(debate.id)
        assert moved.people.lines == (PeopleLine("", ANSWER),)
        assert moved.floor.asked == (OpenAsk("claude", 3, fresh_session=True),)
        assert moved.proposal.topic == "캐시"
        assert await store.pending_effects(debate.id, 10) == [
            (1, AskDebater("claude", 3, 2, shows=(2,), step="turn")),
            (2, PostTurn(2)),
            (3, AskDebater("ag", 1, 1, step="turn")),
            (4, AskDebater("ag", 4, 2, step="answer")),  # stored with steps: kept as it was
        ]
    finally:
        await db.close()
