"""The debate formats: each a pure object the engine runs (see base.py), registered once in
FORMATS, by name, in the order the card offers them. Registering is the only way in; a name
cannot be overwritten (nothing patches a format at start-up: what a format takes from the
settings travels on the debate as its options)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from handlers.core.anonymous import ANONYMOUS
from handlers.core.formats.adversarial import ADVERSARIAL
from handlers.core.formats.adversarial_contract import parse_prefix
from handlers.core.formats.base import CardOption, Format
from handlers.core.formats.boardroom import BOARDROOM
from handlers.core.formats.boardroom_reply import parse_contract as parse_boardroom
from handlers.core.formats.free import FREE
from handlers.core.formats.ledger import LEDGER_FORMAT
from handlers.core.model import ParsedReply, Participant
from handlers.core.reply_parser import parse_reply


class UnknownFormat(LookupError):
    """No format by that name."""


class FormatTaken(ValueError):
    """A format by that name is registered already."""


class FormatRegistry:
    """The registered formats, by name, in registration order."""

    def __init__(self, *formats: Format) -> None:
        self._formats: dict[str, Format] = {}
        for fmt in formats:
            self.register(fmt)

    def register(self, fmt: Format) -> None:
        """Add a format under its name; a name already taken is refused."""
        if fmt.name in self._formats:
            raise FormatTaken(fmt.name)
        self._formats[fmt.name] = fmt

    def named(self, name: str) -> Format:
        """The format called `name`."""
        try:
            return self._formats[name]
        except KeyError:
            raise UnknownFormat(name) from None

    def for_roster(self, roster: tuple[Participant, ...]) -> tuple[str, ...]:
        """The names of the formats this roster can run, in registration order."""
        return tuple(name for name, fmt in self._formats.items() if fmt.allows(roster))

    def __contains__(self, name: object) -> bool:
        return name in self._formats

    def __iter__(self) -> Iterator[str]:
        """Every registered name, in registration order."""
        return iter(tuple(self._formats))


# The card's setup questions every format asks, after its own.
ENGINE_OPTIONS = (CardOption(ANONYMOUS, ("off", "on")),)
FORMATS = FormatRegistry(FREE, ADVERSARIAL, LEDGER_FORMAT, BOARDROOM)
format_named = FORMATS.named  # by name; raises UnknownFormat
formats_for = FORMATS.for_roster  # the names a roster can run, in registration order
# The reply contracts a format may name, each with its tolerant parser.
CONTRACTS: dict[str, Callable[[str], ParsedReply]] = {
    "json": parse_reply,
    "prefix": parse_prefix,
    "boardroom": parse_boardroom,
}


def card_options(name: str) -> tuple[CardOption, ...]:
    """The setup questions the card asks for format `name`: its own, then the engine's."""
    return (*format_named(name).card_options, *ENGINE_OPTIONS)
