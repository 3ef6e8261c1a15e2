"""The house's one back-off rule: wait `first_s`, doubled after each further failure, at most
`max_s`. Pure, so a delay can be computed in the core and stored with an effect."""

from __future__ import annotations


def delay_s(attempt: int, first_s: float, max_s: float) -> float:
    """The wait after failed attempt number `attempt` (0 for the first failure)."""
    wait = first_s
    for _ in range(attempt):
        if wait >= max_s:
            break  # capped: a failure repeated for days never overflows a float
        wait *= 2
    return min(wait, max_s)
