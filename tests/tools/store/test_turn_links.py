"""Where a turn was posted is the link the room returned to the engine, stored with the turn
(on SQLite and PostgreSQL); no other table is read for it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.doubles import draft
from tests.handlers.conftest import proposal
from tests.tools.wiki.support import turn
from tools.store.db import Database
from tools.store.debates import SqliteStore

NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
LINK = "https://discord.com/channels/1/2/3"


async def test_a_turn_keeps_the_link_the_room_gave(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        store = SqliteStore(db)
        debate = await store.create(draft(proposal(), 3, NOW), timedelta(hours=1), ())
        assert debate is not None
        await store.save_step(debate, (), turn(1, "첫 발언", debate_id=debate.id), NOW)
        assert await store.message_url(debate.id, 1) == ""  # not posted yet
        insert = "INSERT INTO room_messages (debate_id, key, channel_id, message_id, url) "
        await db.execute(insert + "VALUES (?, 'turn:1:0', 2, 4, 'elsewhere')", (debate.id,))
        assert await store.message_url(debate.id, 1) == ""  # the room's own table is its own
        await store.record_link(debate.id, 1, LINK)
        assert await store.message_url(debate.id, 1) == LINK
        assert await store.message_url(debate.id, 2) == ""  # no such turn
    finally:
        await db.close()
