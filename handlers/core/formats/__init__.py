"""The debate formats: each a pure object the engine runs (see base.py), registered once in
FORMATS, by name, in the order the card offers them. Registering is the only way in; a name
cannot be overwritten (nothing patches a format at start-up: what a format takes from the
settings travels on the debate as its options).

A format is one folder, `handlers/core/formats/<name>/`, that brings everything it needs:

- `__init__.py` exposes its one `Format` object (rules.py holds the class: steps, briefs,
  pages; the format's `parse` is its reply contract, `task_schemas` its moderator tasks'
  answer models, `record_page` the page that records the outcome);
- its own modules beside it (contract, pages, schemas, ...), importing only the shared parts
  here (base.py, plans.py, keys.py, line_marks.py) and the engine's pure modules;
- its prompts in `prompts/<name>/` (named `<name>/<prompt>` in a `Piece`), among them, if the
  moderator may propose it, `fit.md` (when it fits);
- its own words in `locales/<lang>.toml`, one file per language with the same keys (the
  i18n loader merges them after handlers/locales/; the words the engine shares stay there);
- its demo recordings in `demo/<language>.json`, found through the registry (`recordings`).

To add one: make that folder (and its prompts folder), then add its object to the
`FormatRegistry(...)` line below. The card, the settings, the demo's recordings and the
moderator's adapters take its name, parser and task models from the registry or the task
request (no adapter under tools/ imports a format; the demo's `--format` choices are still
listed by name in bot/console/cli.py).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable

from handlers.core.anonymous.peers import ANONYMOUS
from handlers.core.formats.adversarial import ADVERSARIAL
from handlers.core.formats.base import CardOption, Format
from handlers.core.formats.boardroom import BOARDROOM
from handlers.core.formats.free import FREE
from handlers.core.formats.ledger import LEDGER_FORMAT
from handlers.core.model import Participant

DEMO = "demo"  # a format's folder of demo recordings, `<language>.json` each


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

    def recordings(self, name: str) -> dict[str, Traversable]:
        """The demo's recordings of format `name`, by language: `demo/<language>.json` in the
        format's own folder (none: the demo cannot replay it)."""
        folder = resources.files(sys.modules[type(self.named(name)).__module__].__package__ or "")
        demo = folder / DEMO
        if not demo.is_dir():
            return {}
        found = (entry for entry in demo.iterdir() if entry.name.endswith(".json"))
        return {entry.name.removesuffix(".json"): entry for entry in found}

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


def card_options(name: str) -> tuple[CardOption, ...]:
    """The setup questions the card asks for format `name`: its own, then the engine's."""
    return (*format_named(name).card_options, *ENGINE_OPTIONS)
