"""The debate formats: each a pure object the engine runs (see base.py)."""

from __future__ import annotations

from handlers.formats.base import Format
from handlers.formats.free import FREE
from handlers.model import Participant

FORMATS: dict[str, Format] = {FREE.name: FREE}


class UnknownFormat(LookupError):
    """No format by that name."""


def format_named(name: str) -> Format:
    """The format called `name`; a test may register more in FORMATS."""
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownFormat(name) from None


def formats_for(roster: tuple[Participant, ...]) -> tuple[str, ...]:
    """The names of the formats this roster can run, in registry order."""
    return tuple(name for name, fmt in FORMATS.items() if fmt.allows(roster))
