"""Every SQL statement of `/debate stats`: one server's debates and its turns' stances, each
scoped to the server in the query (never loaded for every server and filtered after)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime

from handlers.core.kinds import Stance
from handlers.core.model import Debate
from tools.store.db import Database
from tools.store.debate_rows import debate_of

SELECT_DEBATES = "SELECT d.state FROM debates d WHERE {where} ORDER BY d.id"
# A turn's stance only (its text is not read): the JSON field of its stored contract.
_STANCE = {
    "sqlite": "json_extract(t.parsed, '$.stance')",
    "postgres": "(t.parsed::jsonb ->> 'stance')",
}
SELECT_STANCES = """
SELECT t.debate_id, t.number, t.seat, {stance} FROM turns t JOIN debates d ON d.id = t.debate_id
WHERE {where} ORDER BY t.debate_id, t.number
"""
# The scope: one server (none given: every server, the console's), made since a date or ever.
BY_GUILD, SINCE = "d.guild_id = ?", "d.created_at >= ?"
_STANCES = {value.value: value for value in Stance}
PARSED_AT_ONCE = 10  # states parsed between two turns of the event loop (about 5 ms)


class SeatRecords:
    """The read side of `/debate stats` (bot/stats.py's `SeatReads`)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._stance = _STANCE[db.dialect]

    async def debates(self, guild_id: int | None, since: datetime | None) -> AsyncIterator[Debate]:
        """The debates of server `guild_id` (None: of every server) made at `since` or later
        (None: ever), oldest first, each parsed when it is asked for: the caller counts one
        and lets it go, and the event loop runs between every few (a thousand states take
        half a second to parse)."""
        where, params = _scope(guild_id, since)
        rows = await self._db.fetch_all(SELECT_DEBATES.format(where=where), params)
        for n, row in enumerate(rows, 1):
            yield debate_of(row[0])
            if n % PARSED_AT_ONCE == 0:
                await asyncio.sleep(0)

    async def stances(
        self, guild_id: int | None, since: datetime | None
    ) -> list[tuple[int, int, str, Stance | None]]:
        """(debate, turn, seat, stated stance) of those debates' stored turns, in turn order."""
        where, params = _scope(guild_id, since)
        sql = SELECT_STANCES.format(stance=self._stance, where=where)
        rows = await self._db.fetch_all(sql, params)
        return [(int(row[0]), int(row[1]), str(row[2]), _STANCES.get(str(row[3]))) for row in rows]


def _scope(guild_id: int | None, since: datetime | None) -> tuple[str, tuple[object, ...]]:
    """The WHERE clause that scopes both queries, and its values."""
    clauses: list[str] = []
    params: list[object] = []
    if guild_id is not None:
        clauses.append(BY_GUILD)
        params.append(guild_id)
    if since is not None:
        clauses.append(SINCE)
        params.append(since.isoformat())
    return " AND ".join(clauses) or "TRUE", tuple(params)
