"""The proposals' rows read back: who decided a card (clicked Open or Not now)."""

from __future__ import annotations

from tools.store.db import Database

SELECT_DECIDED_BY = "SELECT decided_by FROM proposals WHERE debate_id = ?"


class Proposals:
    """The `proposals` table, as the room reads it when it closes a card."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def decided_by(self, debate_id: int) -> int | None:
        """Who decided the debate's card, if anyone has (None: undecided, or expired)."""
        rows = await self._db.fetch_all(SELECT_DECIDED_BY, (debate_id,))
        return int(rows[0][0]) if rows and rows[0][0] else None
