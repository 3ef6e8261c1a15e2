"""A second two-participant format for the card's choice: the free debate under another name
(the card offers every registered format the roster can run)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from handlers.formats import FORMATS
from handlers.formats.free import FreeFormat


class DuoFormat(FreeFormat):
    """Runs exactly as `free`; only its name differs, so the tests can tell which ran."""

    name = "duo"


DUO = DuoFormat()


@contextmanager
def registered(*formats: FreeFormat) -> Iterator[None]:
    """`formats` in FORMATS for the duration (as a new format registers itself)."""
    for fmt in formats:
        FORMATS[fmt.name] = fmt
    try:
        yield
    finally:
        for fmt in formats:
            FORMATS.pop(fmt.name, None)
