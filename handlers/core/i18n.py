"""Words the bot shows people, from `handlers/locales/<lang>/*.toml` and each format's
`handlers/core/formats/<name>/locales/<lang>.toml` (ko default, en, pt-BR)."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from handlers.core.korean import has_particles, resolve_particles

if TYPE_CHECKING:
    from handlers.core.model import Debate

LANGUAGES = ("ko", "en", "pt-BR")
# `{rounds|round|rounds}`: the word for one, then for any other count, chosen by the value of
# the parameter named first (en and pt-BR say "1 round", "2 rounds"; Korean needs none).
_WORDS = r"((?:[^{}|]|\{\w+\})*)"  # plain words, or a parameter among them
_PLURAL = re.compile(rf"\{{(\w+)\|{_WORDS}\|{_WORDS}\}}")


class LocaleError(LookupError):
    """A key is missing from the locale files, or a parameter from a call."""


class Strings:
    """One language's strings; `strings("area.key", name=value)` formats one."""

    def __init__(self, language: str) -> None:
        if language not in LANGUAGES:
            raise LocaleError(f"unknown language {language!r}")
        self.language = language
        self._table = load_table(language)
        # The keys whose text writes a particle in both forms (Korean): only their lines are
        # resolved, so a parameter (a debater's or the moderator's words) is never rewritten.
        particled = (k for k, text in self._table.items() if has_particles(text))
        self._particled = frozenset(particled) if language == "ko" else frozenset()

    def __call__(self, key: str, /, **params: Any) -> str:
        try:
            template = self._table[key]
        except KeyError:
            raise LocaleError(f"no string {key!r} in locale {self.language!r}") from None
        try:
            text = _counted(template, params).format(**params)
        except (KeyError, IndexError) as exc:
            raise LocaleError(f"string {key!r} needs parameter {exc}") from None
        # `{seat}이(가)` becomes `Claude가` / `사회자가`: the particle fits the word it follows.
        return resolve_particles(text) if key in self._particled else text

    def of(self, debate: Debate) -> Strings:
        """The strings a debate is run in: its own language's, else these (the process's
        LANGUAGE). Everything said about one debate (room, replies, wiki) goes through here."""
        language = debate.spoken_in(self.language)
        return self if language == self.language else strings_in(language)

    def has(self, key: str) -> bool:
        """True if the key exists."""
        return key in self._table


def _counted(template: str, params: dict[str, Any]) -> str:
    """The template with each `{count|one|other}` replaced by the word its count takes."""

    def word(found: re.Match[str]) -> str:
        name, one, other = found.groups()
        if name not in params:
            raise KeyError(name)
        return one if str(params[name]).strip() in {"1", "-1"} else other

    return _PLURAL.sub(word, template)


@cache
def strings_in(language: str) -> Strings:
    """One language's strings, loaded once."""
    return Strings(language)


def load_table(language: str) -> dict[str, str]:
    """Merge every `<area>.toml` of a language, and each format's own words (its folder's
    `locales/<language>.toml`), into flat `area.key` names."""
    table: dict[str, str] = {}
    folder = resources.files("handlers") / "locales" / language
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            _flatten(tomllib.loads(entry.read_text(encoding="utf-8")), "", table)
    formats = resources.files("handlers") / "core" / "formats"
    for fmt in sorted(formats.iterdir(), key=lambda e: e.name):
        if (own := fmt / "locales" / f"{language}.toml").is_file():
            _flatten(tomllib.loads(own.read_text(encoding="utf-8")), "", table)
    return table


def _flatten(node: dict[str, Any], prefix: str, out: dict[str, str]) -> None:
    for key, value in node.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(value, f"{name}.", out)
        elif name in out:
            raise LocaleError(f"string {name!r} is defined twice")
        else:
            out[name] = str(value)
