"""A second two-participant format for the card's choice: the free debate under another name
(the card offers every registered format the roster can run)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from handlers.core.formats import FORMATS
from handlers.core.formats.free import FreeFormat


class DuoFormat(FreeFormat):
    """Runs exactly as `free`; only its name differs, so the tests can tell which ran."""

    name = "duo"


DUO = DuoFormat()


@contextmanager
def registered(*formats: FreeFormat) -> Iterator[None]:
    """Only `free` and `formats` in FORMATS for the duration (as if they were all the product
    had), so a test's menu and listing do not change as real formats are added."""
    with FORMATS.scoped(*formats, keep=("free",)):
        yield
