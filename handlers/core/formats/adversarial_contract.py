"""The adversarial format's reply contract: the seed's line-prefix sections, parsed strictly by
prefix (`[THESIS] ...` at the start of a line opens a section that runs to the next prefix)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from handlers.core.formats.line_marks import bodies, candidates
from handlers.core.model import ParsedReply

_PREFIX = re.compile(r"\[([A-Z][A-Z-]*[A-Z])\][ \t]?")
_BRACKET = re.compile(r"\[[A-Z]")  # a candidate prefix: found by one scan in C
_TRAILING = re.compile(r"[ \t\r\f\v]+(?=\n|\Z)")
_DASH = re.compile(r"\s[—–-]+\s")
MAX_LINES = 10_000  # lines holding `[X`, tried before the scan stops looking for prefixes
_INVENTORY_ID = re.compile(r"\bE(\d{1,3})\b")
_NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*])\s+")
CONFIDENCES = ("CONFIRMED", "INFERRED", "SPECULATIVE")
VERDICTS = ("ADOPT", "REJECT", "MODIFY")

_CASE = ("POSITION", "STRUCTURAL", "THESIS", "EVIDENCE")  # how both sides open their case
ADVOCATE = (*_CASE, "COUNTER", "RISKS", "CONFIDENCE")
CHALLENGER = (*_CASE, "ALTERNATIVE", "CONCESSIONS", "CONFIDENCE")
RECONCILER = (
    "STRUCTURAL-PASS",
    "VERDICT",
    "THESIS",
    "POINT-BY-POINT",
    "REJECTED-ARGUMENTS",
    "SURVIVING-ELEMENTS",
    "ADOPTED-FROM-CHALLENGER",
    "SKIPPED-ROLE-RATIONALE",
    "CONFIDENCE",
    "CAVEATS",
)


def sections(text: str) -> dict[str, str]:
    """Each `[PREFIX]` section's text (first occurrence wins; a repeat's text is dropped from
    the sections, never from the turn); lines before the first prefix belong to none."""
    found: dict[str, str] = {}
    for name, body in bodies(text, _prefix_marks(text)):
        if name not in found:
            found[name] = _TRAILING.sub("", body).strip()
    return found


def _prefix_marks(text: str) -> list[tuple[str, int, int]]:
    """(name, start of its line, start of its text) of each prefix that opens a line."""
    marks: list[tuple[str, int, int]] = []
    for line, at in candidates(text, _BRACKET, MAX_LINES):
        found = _PREFIX.match(text, at) if not text[line:at].strip() else None
        if found is not None:
            marks.append((found.group(1), line, found.end()))
    return marks


def missing(text: str, required: tuple[str, ...]) -> tuple[str, ...]:
    """The required prefixes absent (or empty) in `text`."""
    found = sections(text)
    return tuple(f"[{name}]" for name in required if not found.get(name, "").strip())


def parse_prefix(text: str) -> ParsedReply:
    """The engine's view of a prefix reply: all of it the opinion; structured if a prefix leads."""
    return ParsedReply(opinion=text, structured=bool(sections(text)))


def first_word(value: str, allowed: tuple[str, ...]) -> str | None:
    """The first of `allowed` the value starts with (case-insensitive), else None."""
    head = value.strip().upper()
    return next((word for word in allowed if head.startswith(word)), None)


def plain(text: str) -> str:
    """Text compared without case, spacing or closing punctuation."""
    return " ".join(text.casefold().split()).strip(" .;:")


def cited_ids(text: str) -> tuple[str, ...]:
    """The inventory ids (E1, E2, ...) the text cites, in order, once each."""
    cited = (f"E{int(match.group(1))}" for match in _INVENTORY_ID.finditer(text))
    return tuple(dict.fromkeys(cited))


def points(section: str) -> tuple[str, ...]:
    """A section's numbered (or bulleted) points; unnumbered text is one point."""
    items: list[str] = []
    for line in section.splitlines():
        if not line.strip():
            continue
        if _NUMBERED.match(line) or not items:
            items.append(_NUMBERED.sub("", line).strip())
        else:
            items[-1] = f"{items[-1]} {line.strip()}"
    return tuple(items)


@dataclass(frozen=True)
class Ruling:
    """One line of the Reconciler's [POINT-BY-POINT]."""

    point: str
    winner: str
    reasoning: str


def rulings(section: str) -> tuple[Ruling, ...]:
    """`<Point>: <Advocate | Challenger> — <reasoning>` lines; a line in another shape is kept
    whole as the point, so nothing is dropped."""
    return tuple(_ruling(line) for line in section.splitlines() if line.strip())


def _ruling(line: str) -> Ruling:
    """One ruling line split at its first colon and the dash after it (split, not matched:
    no line can make a pattern backtrack)."""
    text = line.strip()
    if text[:1] in ("-", "*"):  # one bullet, as written before the point
        text = text[1:].lstrip()
    point, colon, rest = text.partition(":")
    parts = _DASH.split(rest, maxsplit=1) if colon else []
    if len(parts) != 2 or not point.strip() or not parts[0].strip() or not parts[1].strip():
        return Ruling(line.strip(), "-", "-")
    return Ruling(point.strip(), parts[0].strip(), parts[1].strip())
