"""A second two-participant format for the card's choice: the free debate under another name
(the card offers every registered format the roster can run)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from handlers.core.formats import FORMATS
from handlers.core.formats.base import Format
from handlers.core.formats.free.rules import FreeFormat


class DuoFormat(FreeFormat):
    """Runs exactly as `free`; only its name differs, so the tests can tell which ran."""

    name = "duo"


DUO = DuoFormat()


@contextmanager
def registered(*formats: Format, keep: tuple[str, ...] | None = ("free",)) -> Iterator[None]:
    """For the duration, only the formats named in `keep` (None: all; by default `free`, as if
    it were all the product had, so a test's menu does not change as real formats are added)
    and `formats`; afterwards exactly what was registered before."""
    before = dict(FORMATS._formats)
    FORMATS._formats = {name: before[name] for name in (before if keep is None else keep)}
    try:
        for fmt in formats:
            FORMATS.register(fmt)
        yield
    finally:
        FORMATS._formats = before
