"""Every SQL statement on `polls`: the debate's one timer, which outlives restarts: the people's
poll's end time, or when a usage limit that paused the debate resets (never both at once)."""

from __future__ import annotations

from datetime import datetime

from tools.store.db import Database

# A poll's end is kept by a repeat (after a restart); a finished timer is started again.
INSERT_POLL = """
INSERT INTO polls (debate_id, ends_at) VALUES (?, ?) ON CONFLICT (debate_id)
DO UPDATE SET ends_at = excluded.ends_at, closed_at = NULL WHERE polls.closed_at IS NOT NULL
"""
# A limit's reset time is the CLI's own: it replaces whatever the timer held.
INSERT_RESUME = """
INSERT INTO polls (debate_id, ends_at) VALUES (?, ?) ON CONFLICT (debate_id)
DO UPDATE SET ends_at = excluded.ends_at, closed_at = NULL
"""
SELECT_DUE = """
SELECT debate_id FROM polls WHERE closed_at IS NULL AND ends_at <= ? ORDER BY debate_id
"""
CLOSE_POLL = "UPDATE polls SET closed_at = ? WHERE debate_id = ? AND closed_at IS NULL"


class PollTimers:
    """The debate's timer for a writer outside the store (the room's archive time)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def schedule(self, debate_id: int, ends_at: datetime, *, replace: bool = False) -> None:
        """Store the time; a poll's repeat (after a restart) keeps the first one."""
        sql = INSERT_RESUME if replace else INSERT_POLL
        await self._db.execute(sql, (debate_id, ends_at.isoformat()))
