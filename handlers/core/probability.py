"""A probability as a model gives it, read one way everywhere (detection's threshold)."""

from __future__ import annotations

import math


def probability_of(value: object) -> float | None:
    """`value` as a probability in [0, 1]: a number, or a string holding one ("0.8"); None for
    anything else (missing, a word, NaN, infinity, below 0, above 1, a boolean): no card is
    posted on a probability nobody can read."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) and 0.0 <= number <= 1.0 else None
