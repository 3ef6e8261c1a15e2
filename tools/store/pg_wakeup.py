"""Wake-ups over PostgreSQL's LISTEN/NOTIFY: a command or a proposal stored by one
process wakes the processes that run debates at once, instead of at their next poll."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from handlers.core.turns.backoff import delay_s

log = logging.getLogger(__name__)

FIRST_RETRY_S, LONGEST_RETRY_S = 0.5, 10.0  # reconnecting: the first wait, doubled up to this


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
        failures = 0
        try:
            while True:
                await asyncio.sleep(delay_s(failures, FIRST_RETRY_S, LONGEST_RETRY_S))
                try:
                    await self._connect()
                except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
                    log.debug("LISTEN reconnect failed: %s", exc)
                    failures += 1
                    continue
                log.info("LISTEN connection made again")
                self._wake()  # what was stored while nobody listened
                return
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
