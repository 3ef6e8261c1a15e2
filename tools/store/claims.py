"""Which gateway process acts on a Discord event. Every gateway session of the bot receives
every message and click (a rolling deploy, `docker compose --scale`): the first process to
store the event's id acts on it, the others stand down. A row, not a check in memory: the
processes share nothing else."""

from __future__ import annotations

import time
from collections.abc import Callable

from tools.store.db import Database

CLAIM = "INSERT INTO gateway_claims (event_id) VALUES (?) ON CONFLICT DO NOTHING"
# A snowflake's top bits are milliseconds since Discord's epoch: a claim older than a day is
# dropped by its id alone (the primary key's order), no timestamp column to index.
FORGET = "DELETE FROM gateway_claims WHERE event_id < ?"
DISCORD_EPOCH_MS = 1_420_070_400_000
TIMESTAMP_SHIFT = 22
KEEP_MS = 24 * 3600 * 1000  # far longer than any process takes to see an event


def snowflake_at(epoch_ms: int) -> int:
    """The smallest snowflake Discord gives at `epoch_ms` (milliseconds since 1970)."""
    return max(epoch_ms - DISCORD_EPOCH_MS, 0) << TIMESTAMP_SHIFT


def wall_ms() -> int:
    """Milliseconds since 1970 by this host's clock."""
    return time.time_ns() // 1_000_000


class DatabaseClaims:
    """The claims of the gateway processes sharing one database (GatewayClaims)."""

    def __init__(self, db: Database, now_ms: Callable[[], int] = wall_ms) -> None:
        self._db = db
        self._now_ms = now_ms

    async def first(self, event_id: int) -> bool:
        """True for the one process that claims `event_id` first (a message's, a click's)."""
        old = snowflake_at(self._now_ms() - KEEP_MS)
        async with self._db.transaction() as conn:
            await conn.execute(FORGET, (old,))
            return await conn.execute(CLAIM, (event_id,)) == 1
