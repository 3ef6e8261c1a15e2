"""The debate formats: each a pure object the engine runs (see base.py), registered once in
FORMATS (see registry.py)."""

from __future__ import annotations

from collections.abc import Callable

from handlers.core.anonymous import ANONYMOUS
from handlers.core.formats.adversarial import ADVERSARIAL
from handlers.core.formats.adversarial_contract import parse_prefix
from handlers.core.formats.base import CardOption, Format
from handlers.core.formats.boardroom import BOARDROOM
from handlers.core.formats.boardroom_reply import parse_contract as parse_boardroom
from handlers.core.formats.free import FREE
from handlers.core.formats.ledger import LEDGER_FORMAT
from handlers.core.formats.registry import FormatRegistry, FormatTaken, UnknownFormat
from handlers.core.model import ParsedReply, Participant
from handlers.core.reply_parser import parse_reply

__all__ = [
    "CONTRACTS",
    "FORMATS",
    "FormatRegistry",
    "FormatTaken",
    "UnknownFormat",
    "card_options",
    "format_named",
    "formats_for",
]

# The card's setup questions every format asks, after its own.
ENGINE_OPTIONS = (CardOption(ANONYMOUS, ("off", "on")),)
FORMATS = FormatRegistry(FREE, ADVERSARIAL, LEDGER_FORMAT, BOARDROOM)
# The reply contracts a format may name, each with its tolerant parser.
CONTRACTS: dict[str, Callable[[str], ParsedReply]] = {
    "json": parse_reply,
    "prefix": parse_prefix,
    "boardroom": parse_boardroom,
}


def format_named(name: str) -> Format:
    """The registered format called `name`."""
    return FORMATS.named(name)


def formats_for(roster: tuple[Participant, ...]) -> tuple[str, ...]:
    """The names of the registered formats this roster can run, in registration order."""
    return FORMATS.for_roster(roster)


def card_options(name: str) -> tuple[CardOption, ...]:
    """The setup questions the card asks for format `name`: its own, then the engine's."""
    return (*format_named(name).card_options, *ENGINE_OPTIONS)
