"""The adversarial format's reply contract: the seed's line-prefix sections, parsed strictly by
prefix (`[THESIS] ...` at the start of a line opens a section that runs to the next prefix)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from handlers.core.model import ParsedReply

_PREFIX = re.compile(r"^\s*\[([A-Z][A-Z-]*[A-Z])\]\s?(.*)$")
_INVENTORY_ID = re.compile(r"\bE(\d{1,3})\b")
_NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*])\s+")
CONFIDENCES = ("CONFIRMED", "INFERRED", "SPECULATIVE")
VERDICTS = ("ADOPT", "REJECT", "MODIFY")

ADVOCATE = ("POSITION", "STRUCTURAL", "THESIS", "EVIDENCE", "COUNTER", "RISKS", "CONFIDENCE")
CHALLENGER = (
    "POSITION",
    "STRUCTURAL",
    "THESIS",
    "EVIDENCE",
    "ALTERNATIVE",
    "CONCESSIONS",
    "CONFIDENCE",
)
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
PROBE = ("FRAMING", "STRUCTURAL", "REASSESSMENT", "STABLE", "KEY-TENSION")
VALIDATOR = ("STRUCTURAL-ALIGNMENT", "GROUNDING", "DIRECTION", "RESULT", "CAVEATS")


def sections(text: str) -> dict[str, str]:
    """Each `[PREFIX]` section's text (first occurrence wins); lines before the first prefix
    belong to none."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        match = _PREFIX.match(line)
        if match is not None:
            name, rest = match.group(1), match.group(2)
            current = [] if name in found else found.setdefault(name, [])
            if rest.strip():
                current.append(rest.rstrip())
        elif current is not None:
            current.append(line.rstrip())
    return {name: "\n".join(lines).strip() for name, lines in found.items()}


def missing(text: str, required: tuple[str, ...]) -> tuple[str, ...]:
    """The required prefixes absent (or empty) in `text`."""
    found = sections(text)
    return tuple(f"[{name}]" for name in required if not found.get(name, "").strip())


def parse_prefix(text: str) -> ParsedReply:
    """The engine's view of a prefix reply: the whole text as the opinion; structured if at
    least one prefix was found."""
    return ParsedReply(opinion=text, structured=bool(sections(text)))


def first_word(value: str, allowed: tuple[str, ...]) -> str | None:
    """The first of `allowed` the value starts with (case-insensitive), else None."""
    head = value.strip().upper()
    for word in allowed:
        if head.startswith(word):
            return word
    return None


def cited_ids(text: str) -> tuple[str, ...]:
    """The inventory ids (E1, E2, ...) the text cites, in order, once each."""
    seen: list[str] = []
    for match in _INVENTORY_ID.finditer(text):
        item = f"E{int(match.group(1))}"
        if item not in seen:
            seen.append(item)
    return tuple(seen)


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


_RULING = re.compile(r"^\s*(?:[-*]\s*)?(.+?):\s*(.+?)\s+[—–-]+\s+(.+)$")


def rulings(section: str) -> tuple[Ruling, ...]:
    """`<Point>: <Advocate | Challenger> — <reasoning>` lines; a line in another shape is kept
    whole as the point, so nothing is dropped."""
    found = []
    for line in section.splitlines():
        if not line.strip():
            continue
        match = _RULING.match(line)
        if match is None:
            found.append(Ruling(line.strip(), "-", "-"))
        else:
            found.append(Ruling(*(part.strip() for part in match.groups())))
    return tuple(found)
