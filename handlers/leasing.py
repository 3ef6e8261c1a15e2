"""What the engine asks of a lease when several processes share the debates, and
how it waits out their shared database being out of reach."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Protocol, TypeVar

from handlers.retrying import Retry, retrying
from handlers.store_ports import StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")
# While the store is unreachable a call is made again after a wait: the first, doubled up to
# the longest.
STORE_FIRST_WAIT_S, STORE_LONGEST_WAIT_S = 0.5, 10.0
STORE_RETRY = Retry(
    on=lambda exc: isinstance(exc, StoreUnavailable),
    attempts=None,
    first_s=STORE_FIRST_WAIT_S,
    longest_s=STORE_LONGEST_WAIT_S,
    even_in_tests=True,
)
# The debate the running task works for: its worker sets it, and every task the worker starts
# (an effect, a status edit in its window) inherits it. An adapter reads it to check the lease
# at the last moment before a write leaves the process, after the waits inside a client
# library (a rate limit, a retry) that no check in the engine can see.
ACTING_FOR: ContextVar[int | None] = ContextVar("acting_for", default=None)


class LeaseLost(Exception):
    """This process no longer holds the debate's lease: it must stop acting on that debate."""

    def __init__(self, debate_id: int) -> None:
        super().__init__(f"the lease of debate {debate_id} is lost")
        self.debate_id = debate_id


class LeaseGuard(Protocol):
    """Which debates this process may act on now."""

    def holds(self, debate_id: int) -> bool:
        """True while this process holds the debate's lease with time to spare."""

    def generation(self, debate_id: int) -> int | None:
        """The generation of the debate's lease this process holds (None: not held)."""

    async def confirm(self, debate_id: int) -> None:
        """LeaseLost unless this process may write for the debate now (before each write)."""


class EveryDebate:
    """The guard of a process that runs alone (SQLite): it may act on every debate."""

    def holds(self, debate_id: int) -> bool:
        """Always true."""
        return True

    def generation(self, debate_id: int) -> int:
        """One generation for ever: a restart adopts what the last run posted."""
        return 0

    async def confirm(self, debate_id: int) -> None:
        """Always allowed."""


async def patiently(debate_id: int, call: Callable[[], Awaitable[T]], guard: LeaseGuard) -> T:
    """`call()`, made again while the store is out of reach (waiting longer each time), as
    long as `guard` lets this process act on the debate (else LeaseLost). The waits are real
    even under the testing switch: an outage is not polled in a busy loop."""
    missed: list[StoreUnavailable] = []

    async def attempt() -> T:
        if missed and not guard.holds(debate_id):
            raise LeaseLost(debate_id) from missed[-1]
        try:
            return await call()
        except StoreUnavailable as exc:
            missed[:] = [exc]  # the last one, for LeaseLost's cause
            raise

    def first_warns(exc: Exception, failures: int) -> None:
        if failures == 1:
            log.warning("debate %s: %s; waiting for it", debate_id, exc)

    return await retrying(attempt, STORE_RETRY, on_retry=first_warns)
