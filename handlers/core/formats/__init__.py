"""The debate formats: each a pure object the engine runs (see base.py)."""

from __future__ import annotations

from collections.abc import Callable

from handlers.core.formats.adversarial import ADVERSARIAL
from handlers.core.formats.adversarial_contract import parse_prefix
from handlers.core.formats.base import Format
from handlers.core.formats.boardroom import BOARDROOM
from handlers.core.formats.boardroom_reply import parse_contract as parse_boardroom
from handlers.core.formats.free import FREE
from handlers.core.formats.ledger import LEDGER_FORMAT
from handlers.core.model import ParsedReply, Participant
from handlers.core.reply_parser import parse_reply

FORMATS: dict[str, Format] = {FREE.name: FREE}
FORMATS[ADVERSARIAL.name] = ADVERSARIAL
FORMATS[LEDGER_FORMAT.name] = LEDGER_FORMAT
FORMATS[BOARDROOM.name] = BOARDROOM
# The reply contracts a format may name, each with its tolerant parser (line prefixes for
# the adversarial format will join the JSON block here).
CONTRACTS: dict[str, Callable[[str], ParsedReply]] = {"json": parse_reply}
CONTRACTS["prefix"] = parse_prefix
CONTRACTS["boardroom"] = parse_boardroom


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
