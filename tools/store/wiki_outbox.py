"""Every SQL statement on `wiki_outbox` (and the older `wiki_pages`): the wiki's writes queued
in order (`OutboxQueue`), and what landed where (`LandedPages`), read to tell a person's edit."""

from __future__ import annotations

from dataclasses import dataclass, fields

from tools.store.db import Database, Row

INSERT_ENTRY = """
INSERT INTO wiki_outbox (debate_id, dedup_key, path, title, mode, content, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedup_key) DO NOTHING RETURNING id
"""
SELECT_NEXT = """
SELECT id, debate_id, dedup_key, path, title, mode, content, attempts FROM wiki_outbox
WHERE debate_id = ? AND done_at IS NULL AND id > ? ORDER BY id LIMIT ?
"""
SELECT_PENDING_DEBATES = (
    "SELECT DISTINCT debate_id FROM wiki_outbox WHERE done_at IS NULL ORDER BY debate_id"
)
COUNT_PENDING = "SELECT COUNT(*) FROM wiki_outbox WHERE debate_id = ? AND done_at IS NULL"
RECORD_FAILURE = """
UPDATE wiki_outbox SET attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?
"""
GIVE_UP = """
UPDATE wiki_outbox SET done_at = ?, next_attempt_at = NULL, last_error = ?, attempts = attempts + 1
WHERE id = ?
"""
# What the bot last wrote to a page: its newest landed entry there, else what an earlier
# release recorded in wiki_pages.
SELECT_WRITTEN_HASH = """
SELECT written_hash FROM wiki_outbox WHERE written_path = ? AND written_hash IS NOT NULL
ORDER BY id DESC LIMIT 1
"""
SELECT_KNOWN_HASH = "SELECT content_hash FROM wiki_pages WHERE path = ?"
# A debate's writes so far: landed, and refused because its folder held another debate's pages.
SELECT_FOLDER_STATE = """
SELECT count(written_hash), count(CASE WHEN last_error LIKE 'folder_taken:%' THEN 1 END)
FROM wiki_outbox WHERE debate_id = ?
"""
MARK_DONE = """
UPDATE wiki_outbox SET done_at = ?, next_attempt_at = NULL, written_path = ?, written_hash = ?
WHERE id = ?
"""


@dataclass(frozen=True)
class Entry:
    """One queued write, as `wiki_outbox` holds it (`mode`: a tools.wiki.merge.Mode's value)."""

    id: int
    debate_id: int
    dedup_key: str
    path: str
    title: str
    mode: str
    content: str
    attempts: int

    @classmethod
    def of(cls, row: Row) -> Entry:
        """The entry in a row of SELECT_NEXT."""
        return cls(**{field.name: row[field.name] for field in fields(cls)})


class OutboxQueue:
    """The queued writes: added once per key, read in order per debate, failed or given up."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(
        self, debate_id: int, key: str, path: str, title: str, mode: str, content: str, at: str
    ) -> None:
        """Queue a write under its key (a repeat, after a crash, is there already)."""
        await self._db.insert(INSERT_ENTRY, (debate_id, key, path, title, mode, content, at))

    async def debates_pending(self) -> list[int]:
        """The debates that have writes not yet landed."""
        return [int(row["debate_id"]) for row in await self._db.fetch_all(SELECT_PENDING_DEBATES)]

    async def pending(self, debate_id: int) -> int:
        """How many of the debate's writes have not landed yet."""
        row = await self._db.fetch_one(COUNT_PENDING, (debate_id,))
        return int(row[0]) if row else 0

    async def next(self, debate_id: int, after: int, limit: int) -> list[Entry]:
        """The debate's next `limit` writes not landed, in order, after the entry `after`."""
        rows = await self._db.fetch_all(SELECT_NEXT, (debate_id, after, limit))
        return [Entry.of(row) for row in rows]

    async def failed(self, entry_id: int, attempts: int, reason: str, retry_at: str) -> None:
        """Record a failed attempt and when the next is due."""
        await self._db.execute(RECORD_FAILURE, (attempts, reason, retry_at, entry_id))

    async def give_up(self, entry_id: int, at: str, reason: str) -> None:
        """A write refused for good: done, with its reason."""
        await self._db.execute(GIVE_UP, (at, reason, entry_id))


class LandedPages:
    """What landed where: each write done with the hash of what was written."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def done(self, entry_id: int, at: str, path: str, written_hash: str) -> None:
        """Record a write landed on `path`, with the hash of what was written there."""
        await self._db.execute(MARK_DONE, (at, path, written_hash, entry_id))

    async def folder_state(self, debate_id: int) -> tuple[int, int]:
        """The debate's writes landed so far, and those refused for a folder taken."""
        row = await self._db.fetch_one(SELECT_FOLDER_STATE, (debate_id,))
        return (int(row[0]), int(row[1])) if row else (0, 0)

    async def known_hash(self, path: str) -> str | None:
        """The recorded hash of what the bot last wrote to the page, or None if it never did."""
        known = await self._db.fetch_one(SELECT_WRITTEN_HASH, (path,))
        known = known or await self._db.fetch_one(SELECT_KNOWN_HASH, (path,))
        return str(known[0]) if known else None
