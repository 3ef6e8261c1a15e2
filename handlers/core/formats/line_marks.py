"""A reply's sections read by the marks that open its lines, in linear time: a candidate mark is
found by one scan in C, only its line is looked at, and the scan goes on from the next line, so
a hostile reply can neither make a pattern backtrack nor keep the loop running."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TypeVar

Key = TypeVar("Key")


def candidates(text: str, candidate: re.Pattern[str], most: int) -> Iterator[tuple[int, int]]:
    """(start of its line, its start) of each line's first candidate, on at most `most` lines."""
    pos = 0  # always a line's start
    for _ in range(most):
        found = candidate.search(text, pos)
        if found is None:
            return
        at = found.start()
        yield text.rfind("\n", pos, at) + 1 or pos, at
        pos = text.find("\n", at) + 1
        if pos == 0:
            return


def bodies(text: str, marks: Sequence[tuple[Key, int, int]]) -> Iterator[tuple[Key, str]]:
    """Each (key, start of its line, end of the mark)'s key and text, up to the next mark's line."""
    for index, (key, _, start) in enumerate(marks):
        end = marks[index + 1][1] if index + 1 < len(marks) else len(text)
        yield key, text[start:end]
