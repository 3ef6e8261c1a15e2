"""Wake-ups over PostgreSQL's LISTEN/NOTIFY (issue 20): a command or a proposal stored by one
process wakes the processes that run debates at once, instead of at their next poll."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

log = logging.getLogger(__name__)


class Wakeup:
    """One connection of its own that LISTENs on a channel and calls `wake` on each NOTIFY."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    @classmethod
    async def listen(cls, url: str, channel: str, wake: Callable[[], None]) -> Wakeup:
        """Connect and listen; a lost connection only leaves the poll (WORKER_POLL_SECONDS)."""
        conn = await asyncpg.connect(url)
        await conn.add_listener(channel, lambda *_args: wake())
        conn.add_termination_listener(lambda _conn: log.warning("LISTEN connection lost"))
        return cls(conn)

    async def aclose(self) -> None:
        """Close the connection."""
        with contextlib.suppress(Exception):  # closing: the server may be gone already
            await self._conn.close()
