"""Reading an ADR the way a reviewer (and an ADR tool) would: its YAML front matter, then
MADR's sections in order, each filled or marked not applicable, in the debate's language."""

from __future__ import annotations

import re
from typing import Any

import yaml

from handlers.core.i18n import Strings

# MADR 4.0's sections, in its template's order (`##`, and `###` under the outcome).
MADR_SECTIONS = (
    ("##", "adr.context"),
    ("##", "adr.drivers"),
    ("##", "adr.options"),
    ("##", "adr.outcome"),
    ("###", "adr.consequences"),
    ("###", "adr.confirmation"),
    ("##", "adr.pros_cons"),
    ("##", "adr.more"),
)
_HEADING = re.compile(r"^(#{1,3}) (.+)$", re.MULTILINE)


def front_matter(text: str) -> dict[str, Any]:
    """The front matter, parsed as YAML (it must open the file and close before the title)."""
    assert text.startswith("---\n"), text[:80]
    head, _, _ = text[4:].partition("\n---\n")
    parsed = yaml.safe_load(head)
    assert isinstance(parsed, dict)
    return parsed


def sections(text: str) -> list[tuple[str, str, str]]:
    """(level, heading, body) of each heading after the front matter, in order."""
    body = text[4:].partition("\n---\n")[2]
    found = list(_HEADING.finditer(body))
    return [
        (m[1], m[2], body[m.end() : found[i + 1].start() if i + 1 < len(found) else None].strip())
        for i, m in enumerate(found)
    ]


def check_complete(text: str, t: Strings) -> dict[str, str]:
    """Every MADR section present, in order, under its heading in `t`'s language, and each
    filled or marked not applicable; each option a `###` under the pros and cons. Returns the
    bodies by locale key."""
    found = sections(text)
    assert found[0][0] == "#" and found[0][2]  # the title, then the status line under it
    madr = [(level, heading) for level, heading, _ in found if heading in _madr_words(t)]
    assert madr == [(level, t(key)) for level, key in MADR_SECTIONS]
    bodies = {}
    by_heading = {heading: body for _, heading, body in found}
    for _, key in MADR_SECTIONS:
        bodies[key] = by_heading[t(key)]
        if key != "adr.pros_cons":  # its options are `###` sections of their own
            assert bodies[key], key
    options = _options_after(found, t("adr.pros_cons"), t("adr.more"))
    assert options or bodies["adr.pros_cons"] == t("adr.not_applicable")
    for heading, body in options:
        assert body, heading  # its description, its pros and cons, or not applicable
    assert "⟦" not in text  # no locale key left unfilled
    return bodies


def options_of(text: str, t: Strings) -> list[tuple[str, str]]:
    """(name, body) of each option under the pros and cons."""
    return _options_after(sections(text), t("adr.pros_cons"), t("adr.more"))


def _options_after(
    found: list[tuple[str, str, str]], start: str, end: str
) -> list[tuple[str, str]]:
    headings = [heading for _, heading, _ in found]
    first, last = headings.index(start), headings.index(end)
    return [(heading, body) for _, heading, body in found[first + 1 : last]]


def _madr_words(t: Strings) -> set[str]:
    return {t(key) for _, key in MADR_SECTIONS}
