"""Every SQL statement on `room_messages`: what a room posted, under a stable key per debate.

The Discord room, the console room and the AG relay record their posts here, so a repeated
call after a restart finds the record and posts nothing twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from tools.store.db import Database

Posted = tuple[int, int, str]  # channel id, message id, url

SELECT_ALL = "SELECT key, channel_id, message_id, url FROM room_messages WHERE debate_id = ?"
SELECT_ONE = "SELECT 1 FROM room_messages WHERE debate_id = ? AND key = ?"
# A key "starts with" as substr(): the same in SQLite and PostgreSQL (GLOB is SQLite's, and
# LIKE differs in case sensitivity between the two).
SELECT_MATCHING = """
SELECT key, channel_id, message_id FROM room_messages
WHERE debate_id = ? AND (substr(key, 1, ?) = ?{also}) ORDER BY key
"""
SELECT_THREAD = "SELECT channel_id FROM room_messages WHERE debate_id = ? AND key = 'thread'"
SELECT_DEBATE_BY_THREAD = (
    "SELECT debate_id FROM room_messages WHERE key = 'thread' AND channel_id = ?"
)
INSERT_MANY = """
INSERT INTO room_messages (debate_id, key, channel_id, message_id, url) VALUES {rows}
ON CONFLICT (debate_id, key) DO UPDATE SET channel_id = excluded.channel_id,
    message_id = excluded.message_id, url = excluded.url
"""
DELETE_ONE = "DELETE FROM room_messages WHERE debate_id = ? AND key = ?"
INSERT_OR_IGNORE = """
INSERT INTO room_messages (debate_id, key, channel_id, message_id, url)
VALUES (?, ?, ?, ?, ?) ON CONFLICT (debate_id, key) DO NOTHING
"""


class RoomMessages:
    """The `room_messages` table of one database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def all_of(self, debate_id: int) -> dict[str, Posted]:
        """Every record of a debate, by key."""
        rows = await self._db.fetch_all(SELECT_ALL, (debate_id,))
        return {str(r["key"]): (int(r[1]), int(r[2]), str(r[3])) for r in rows}

    async def has(self, debate_id: int, key: str) -> bool:
        """True if the debate has a record under the key."""
        return await self._db.fetch_one(SELECT_ONE, (debate_id, key)) is not None

    async def matching(
        self, debate_id: int, prefix: str, *, keys: Sequence[str] = ()
    ) -> list[tuple[str, int, int]]:
        """(key, channel id, message id) of the records whose key starts with `prefix` or is
        one of `keys`, by key."""
        also = "".join(" OR key = ?" for _ in keys)
        query = SELECT_MATCHING.format(also=also)
        rows = await self._db.fetch_all(query, (debate_id, len(prefix), prefix, *keys))
        return [(str(r["key"]), int(r["channel_id"]), int(r["message_id"])) for r in rows]

    async def thread_of(self, debate_id: int) -> int | None:
        """The channel id of the debate's thread, if it has one."""
        row = await self._db.fetch_one(SELECT_THREAD, (debate_id,))
        return None if row is None else int(row["channel_id"])

    async def debate_in_thread(self, channel_id: int) -> int | None:
        """The debate whose thread a channel is, if any."""
        row = await self._db.fetch_one(SELECT_DEBATE_BY_THREAD, (channel_id,))
        return None if row is None else int(row[0])

    async def put_all(self, debate_id: int, records: list[tuple[str, Posted]]) -> None:
        """Record several posts in one statement (records under the same keys are replaced)."""
        latest = dict(records)  # one row per key: the last record of a key wins
        if latest:
            rows = ", ".join("(?, ?, ?, ?, ?)" for _ in latest)
            values = tuple(v for key, posted in latest.items() for v in (debate_id, key, *posted))
            await self._db.execute(INSERT_MANY.format(rows=rows), values)

    async def delete(self, debate_id: int, key: str) -> None:
        """Drop one record (its message was deleted)."""
        await self._db.execute(DELETE_ONE, (debate_id, key))

    async def add(self, debate_id: int, key: str, posted: Posted = (0, 0, "")) -> None:
        """Record a post unless the key has a record already."""
        await self._db.execute(INSERT_OR_IGNORE, (debate_id, key, *posted))
