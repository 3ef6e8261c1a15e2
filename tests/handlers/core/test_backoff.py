"""The one back-off rule every retry of the house waits by."""

from __future__ import annotations

import pytest

from handlers.core.turns.backoff import delay_s


@pytest.mark.parametrize(
    ("attempt", "first_s", "max_s", "wait"),
    [
        (0, 2.0, 300.0, 2.0),  # the first failure waits first_s
        (1, 2.0, 300.0, 4.0),
        (2, 2.0, 300.0, 8.0),
        (7, 2.0, 300.0, 256.0),
        (8, 2.0, 300.0, 300.0),  # doubling stops at the cap
        (1100, 2.0, 300.0, 300.0),  # days at the cap: 2 ** 1100 would not fit in a float
        (0, 30.0, 120.0, 30.0),  # a debater's retries: 30 s, then 60 s
        (1, 30.0, 120.0, 60.0),
        (5, 0.5, 10.0, 10.0),  # the store's outage wait
    ],
)
def test_the_wait_doubles_from_the_first_up_to_its_cap(
    attempt: int, first_s: float, max_s: float, wait: float
) -> None:
    assert delay_s(attempt, first_s, max_s) == wait
