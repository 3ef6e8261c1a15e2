"""Wake-ups over PostgreSQL's LISTEN/NOTIFY: a command or a proposal stored by one
process wakes the processes that run debates at once, instead of at their next poll."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from handlers.retrying import Retry, retrying

log = logging.getLogger(__name__)

FIRST_RETRY_S, LONGEST_RETRY_S = 0.5, 10.0  # reconnecting: the first wait, doubled up to this
RECONNECT = Retry(
    on=lambda exc: isinstance(exc, OSError | TimeoutError | asyncpg.PostgresError),
    attempts=None,
    first_s=FIRST_RETRY_S,
    longest_s=LONGEST_RETRY_S,
    even_in_tests=True,  # no busy loop while the server is down
)


class Wakeup:
    """One connection of its own that LISTENs on a channel and calls `wake` on each NOTIFY;
    a lost connection is made again (meanwhile the poll, WORKER_POLL_SECONDS, goes on)."""

    def __init__(self, url: str, channel: str, wake: Callable[[], None]) -> None:
        self._url = url
        self._channel = channel
        self._wake = wake
        self._conn: Any = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def listen(cls, url: str, channel: str, wake: Callable[[], None]) -> Wakeup:
        """Connect and listen."""
        wakeup = cls(url, channel, wake)
        await wakeup._connect()
        return wakeup

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self._url)
        await conn.add_listener(self._channel, lambda *_args: self._wake())
        conn.add_termination_listener(self._lost)
        self._conn = conn

    def _lost(self, _conn: Any) -> None:
        if self._closed or self._reconnecting is not None:
            return
        log.warning("LISTEN connection lost; reconnecting")
        self._reconnecting = asyncio.create_task(self._reconnect(), name="listen-reconnect")

    async def _reconnect(self) -> None:
        def quietly(exc: Exception, _failures: int) -> None:
            log.debug("LISTEN reconnect failed: %s", exc)

        try:
            await asyncio.sleep(FIRST_RETRY_S)  # the server that dropped it may be restarting
            await retrying(self._connect, RECONNECT, on_retry=quietly)
            log.info("LISTEN connection made again")
            self._wake()  # what was stored while nobody listened
        finally:
            self._reconnecting = None

    async def aclose(self) -> None:
        """Stop reconnecting and close the connection."""
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnecting
        with contextlib.suppress(Exception):  # closing: the server may be gone already
            await self._conn.close()
