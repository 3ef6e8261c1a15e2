"""The house's one back-off rule: wait `first_s`, doubled after each further failure, at most
`max_s`. Pure, so a delay can be computed in the core and stored with an effect."""

from __future__ import annotations

import math


def delay_s(attempt: int, first_s: float, max_s: float) -> float:
    """The wait after failed attempt number `attempt` (0 for the first failure)."""
    wait = first_s
    for _ in range(attempt):
        if wait >= max_s:
            break  # capped: a failure repeated for days never overflows a float
        wait *= 2
    return min(wait, max_s)


def within(seconds: float | None, low: float, high: float) -> float | None:
    """A wait someone outside named (a rate limit's retry-after, a limit's reset), as the
    engine takes it: between `low` and `high`; None when it is not a finite number."""
    if seconds is None or not math.isfinite(seconds):
        return None
    return min(max(seconds, low), high)
