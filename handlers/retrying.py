"""The house's one retry rule: a failed call is made again after a wait, as long as its rule
says (which errors, how many tries, how long between), with one testing switch that turns the
waits off. The waits follow the pure core's back-off (handlers.core.turns.backoff) unless the error
said how long (a 429's `retry_after`).

Every loop that makes a call again goes through `retrying`: an effect of the engine, the
moderator's 429, the store waited out, a lost LISTEN connection. (The wiki outbox is no loop:
it stores each entry's next try, with the same back-off.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from handlers.core.turns.backoff import delay_s, within

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]

_testing = False


def set_testing(on: bool) -> None:
    """Turn every retry wait off (tests), or on again; how often a call is tried is kept."""
    global _testing  # noqa: PLW0603  # one switch for the whole process, like stamina's
    _testing = on


def asked_wait(error: BaseException) -> float | None:
    """How long the error said to wait (`retry_after`, as discord.py's RateLimited and our
    DebaterError carry it); None when it did not say."""
    asked = getattr(error, "retry_after", None)
    return float(asked) if isinstance(asked, int | float) else None


@dataclass(frozen=True)
class Retry:
    """Which failures are tried again, how often, and the waits between the tries."""

    on: Callable[[Exception], bool]  # True: this failure is worth another try
    attempts: int | None  # every try counted, the first too; None: until it works
    first_s: float  # the first wait, doubled after each further failure...
    longest_s: float  # ...up to this; a wait the error asked for is held under it too
    # A wait that never goes down to zero, even under the testing switch: waiting out an
    # outage without end must not become a busy loop.
    even_in_tests: bool = False

    def wait(self, error: Exception, failures: int) -> float:
        """The wait after `failures` failures: the back-off, or longer if the error asked."""
        wait = delay_s(failures - 1, self.first_s, self.longest_s)
        asked = within(asked_wait(error), 0.0, self.longest_s)
        return max(wait, asked or 0.0)


async def retrying(
    call: Callable[[], Awaitable[T]],
    rule: Retry,
    *,
    sleep: Sleep = asyncio.sleep,
    wait: Callable[[Exception, int], float] | None = None,
    on_retry: Callable[[Exception, int], None] | None = None,
) -> T:
    """`call()`, made again after each failure `rule` retries, until it works or the tries
    run out (then the last failure is raised, for the caller to log as an error).

    `on_retry(error, failures)` hears each failure that is tried again (a warning, usually)
    before the wait; it may raise to stop. `wait` replaces the rule's waits (the testing
    switch still turns them off); `sleep` is the caller's clock's.
    """
    failures = 0
    while True:
        try:
            return await call()
        except Exception as exc:
            failures += 1
            if not rule.on(exc) or (rule.attempts is not None and failures >= rule.attempts):
                raise
            if on_retry is not None:
                on_retry(exc, failures)
            if _testing and not rule.even_in_tests:
                await sleep(0.0)  # the switch is off for the wait, not for the tries
            else:
                await sleep((wait or rule.wait)(exc, failures))
