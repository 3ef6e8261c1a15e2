"""Every SQL statement on `polls`: the people's poll's end time, a timer that outlives restarts."""

from __future__ import annotations

from datetime import datetime

from tools.store.db import Database

INSERT_POLL = """
INSERT INTO polls (debate_id, ends_at) VALUES (?, ?) ON CONFLICT (debate_id) DO NOTHING
"""
SELECT_DUE = """
SELECT debate_id FROM polls WHERE closed_at IS NULL AND ends_at <= ? ORDER BY debate_id
"""
CLOSE_POLL = "UPDATE polls SET closed_at = ? WHERE debate_id = ? AND closed_at IS NULL"


class PollTimers:
    """The `polls` table of one database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def schedule(self, debate_id: int, ends_at: datetime) -> None:
        """Store the end time; a repeat (after a restart) keeps the first one."""
        await self._db.execute(INSERT_POLL, (debate_id, ends_at.isoformat()))

    async def due(self, now: datetime) -> list[int]:
        """Debates whose poll is past its end time and not yet closed."""
        rows = await self._db.fetch_all(SELECT_DUE, (now.isoformat(),))
        return [int(row[0]) for row in rows]

    async def closed(self, debate_id: int, now: datetime) -> None:
        """The poll was read."""
        await self._db.execute(CLOSE_POLL, (now.isoformat(), debate_id))
