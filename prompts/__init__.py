"""Prompt text lives here, as Markdown files with `${placeholder}`s; `load` fills them.

The engine's own prompts (`debate_*`, `moderator_*`, ...) lie at the top; a format's lie in its
folder, `<format>/`, and are named with it: `boardroom/round1` is `boardroom/round1.ko.md`."""

from __future__ import annotations

import functools
from importlib import resources
from string import Template


class PromptError(Exception):
    """A prompt is missing, or its placeholders do not match the values given."""


def load(name: str, language: str | None = None, /, **values: str) -> str:
    """Fill prompt `name` (`name.<language>.md` first, then `name.md`; a `/` in the name is
    a folder: `<format>/<prompt>`) with `values`.

    A placeholder without a value, or a value without a placeholder, is an error:
    a prompt and its caller must agree exactly.
    """
    template, wanted = _template(name, language)
    given = set(values)
    if wanted != given:
        missing, unused = sorted(wanted - given), sorted(given - wanted)
        raise PromptError(f"prompt {name}: missing {missing}, unused {unused}")
    return template.substitute(values)


def placeholders(name: str, language: str | None = None) -> frozenset[str]:
    """The names prompt `name` wants filled."""
    return _template(name, language)[1]


def exists(name: str, language: str | None = None) -> bool:
    """True if the prompt file is shipped."""
    try:
        _read(name, language)
    except PromptError:
        return False
    return True


@functools.cache
def _template(name: str, language: str | None) -> tuple[Template, frozenset[str]]:
    """The prompt's template and its placeholders, read once (the files ship with the code)."""
    template = Template(_read(name, language))
    if not template.is_valid():
        raise PromptError(f"prompt {name}: a '$' that is not a placeholder (write $$)")
    return template, frozenset(template.get_identifiers())


def _read(name: str, language: str | None) -> str:
    root = resources.files(__name__)
    candidates = ([f"{name}.{language}.md"] if language else []) + [f"{name}.md"]
    for candidate in candidates:
        entry = root.joinpath(*candidate.split("/"))
        if entry.is_file():
            return entry.read_text(encoding="utf-8")
    raise PromptError(f"no prompt named {name!r} (looked for {', '.join(candidates)})")
