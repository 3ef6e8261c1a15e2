"""The adversarial roles' reply contracts as JSON Schemas, for a seat whose backend validates
its answer's shape itself (the claude CLI's `--json-schema`).

The seed's contract is text: the RETURN FORMAT's line prefixes, "parsed by line prefix". So the
schema wraps that text whole, as written, in one field (`reply`), and checks on it what
`contract.missing` and `contract.negated` check: each of the role's prefixes opens a line and
has something after it before the next prefix opens one; a Challenger's [ALTERNATIVE] is more
than "none". The record is that text (`handlers.core.reply.schema.text_only`), so the thread,
the pages and the parser see exactly what a prefix answer always was."""

from __future__ import annotations

from typing import Any

from handlers.core.formats.adversarial.contract import ADVOCATE, CHALLENGER, RECONCILER
from handlers.core.reply.schema import WORDS, compact

REPLY = "reply"  # the one field: the whole answer in the RETURN FORMAT
ROLE_PREFIXES = {"advocate": ADVOCATE, "challenger": CHALLENGER, "reconciler": RECONCILER}
# A line that opens a section (`contract._PREFIX` at a line's start, after blanks).
_NEXT_PREFIX = r"\n[ \t]*\[[A-Z][A-Z-]*[A-Z]\]"
# `contract._NO_ALTERNATIVE`, each letter in both cases (a schema pattern has no flags).
_NO_ALTERNATIVE = ("none", "n/a", "-", "—", "no alternative", "nothing")
_SYNTAX = frozenset("^$\\.*+?()[]{}|/")


def _either_case(word: str) -> str:
    """`word` as a pattern in either case; only syntax characters escaped (a pattern is
    ECMAScript's in Unicode mode, where any other escape is an error)."""
    return "".join(
        f"[{c.upper()}{c.lower()}]" if c.isalpha() else f"\\{c}" if c in _SYNTAX else c
        for c in word
    )


def filled(prefix: str) -> str:
    """A pattern: `[PREFIX]` opens a line, and something other than blanks follows it before
    the next line that opens a section."""
    return rf"(?:^|\n)[ \t]*\[{prefix}\](?:[^\S\n]*\n(?![ \t]*\[[A-Z][A-Z-]*[A-Z]\]))*[^\S\n]*\S"


def negation(prefix: str, words: tuple[str, ...]) -> str:
    """A pattern: the section `[PREFIX]` says only one of `words` (then ends)."""
    said = "|".join(_either_case(word) for word in words)
    return rf"(?:^|\n)[ \t]*\[{prefix}\][ \t]*(?:{said})[ \t.;:]*(?:\s*{_NEXT_PREFIX}|\s*$)"


def role_schema(role: str) -> str:
    """The role's answer (JSON text); '' for a role with no contract of its own."""
    prefixes = ROLE_PREFIXES.get(role)
    if prefixes is None:
        return ""
    reply: dict[str, Any] = {
        **WORDS,
        "description": (
            "Your whole answer in the RETURN FORMAT, exactly as you would write it: each of "
            + ", ".join(f"[{p}]" for p in prefixes)
            + " at the start of its own line, followed by its content."
        ),
        "allOf": [{"pattern": filled(prefix)} for prefix in prefixes],
    }
    if role == "challenger":
        reply["not"] = {"pattern": negation("ALTERNATIVE", _NO_ALTERNATIVE)}
    return compact(
        {
            "type": "object",
            "properties": {REPLY: reply},
            "required": [REPLY],
            "additionalProperties": False,
        }
    )
