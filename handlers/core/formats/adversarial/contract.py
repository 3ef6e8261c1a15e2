"""The adversarial format's reply contract: the seed's line-prefix sections, parsed strictly by
prefix (`[THESIS] ...` at the start of a line opens a section that runs to the next prefix)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice

from handlers.core.formats.line_marks import bodies, candidates
from handlers.core.model import ParsedReply

_PREFIX = re.compile(r"\[([A-Z][A-Z-]*[A-Z])\][ \t]?")
_BRACKET = re.compile(r"\[[A-Z]")  # a candidate prefix: found by one scan in C
# Space after a newline: a line's trailing space, in the text read backwards.
_SPACE_AFTER_NEWLINE = re.compile(r"\n[ \t\r\f\v]+")
_DASH = re.compile(r"\s[—–-]+\s")
MAX_LINES = 10_000  # lines holding `[X`, tried before the scan stops looking for prefixes
# What telling arguments apart may scan (`once_each`): a few dozen ordinary points fit in the
# floor whole; one comparison costs its Python step too, counted as this many characters.
_SAME_BUDGET_FACTOR = 8
_SAME_BUDGET_FLOOR = 1 << 22
_COMPARISON_COST = 256
# `\bE(\d{1,3})`, the boundary checked after the `E` so that the search scans for it in C;
# after the digits, no letter of a name (`E12x`) may follow, but a Korean particle may (`E1은`).
_INVENTORY_ID = re.compile(r"E(?<!\wE)(\d{1,3})(?![0-9A-Za-z_])")
# A point's number or bullet and the white space after it, at the start of a line (left-stripped)
# of a text whose lines end at "\n" only.
_POINT_START = re.compile(r"^(?:\d+[.)]|[-*])[^\S\n]+", re.MULTILINE)
# Points (and rulings, grounding lines) read one by one, more than any real answer holds; the
# rest of a section is its last item, whole: a hostile answer of a million one-word points
# costs a few scans in C, not a Python step for each.
MAX_POINTS = 1000
CONFIDENCES = ("CONFIRMED", "INFERRED", "SPECULATIVE")
VERDICTS = ("ADOPT", "REJECT", "MODIFY")
# An [ALTERNATIVE] that proposes nothing (an empty one is missing already).
_NO_ALTERNATIVE = frozenset({"none", "n/a", "-", "—", "no alternative", "nothing"})

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
            found[name] = _trailing_space_dropped(body).strip()
    return found


def _trailing_space_dropped(text: str) -> str:
    """Each line without its trailing space. Read backwards, that space follows a newline:
    the search finds newlines in C and reads each run once, where a search for space before a
    newline tried every space of the text (and a long run ending mid-line from each of its
    characters: its length squared)."""
    backwards = text[::-1].lstrip(" \t\r\f\v")
    return _SPACE_AFTER_NEWLINE.sub("\n", backwards)[::-1]


def _prefix_marks(text: str) -> list[tuple[str, int, int]]:
    """(name, start of its line, start of its text) of each prefix that opens a line."""
    marks: list[tuple[str, int, int]] = []
    for line, at in candidates(text, _BRACKET, MAX_LINES):
        found = _PREFIX.match(text, at) if not text[line:at].strip() else None
        if found is not None:
            marks.append((found.group(1), line, found.end()))
    return marks


def missing(text: str, required: tuple[str, ...]) -> tuple[str, ...]:
    """The required prefixes absent (or empty) in `text` (read on the loop: the sections are
    not cleaned, emptiness does not need it)."""
    found: dict[str, str] = {}
    for name, body in bodies(text, _prefix_marks(text)):
        found.setdefault(name, body)
    return tuple(f"[{name}]" for name in required if not found.get(name, "").strip())


def negated(text: str) -> tuple[str, ...]:
    """`[ALTERNATIVE]` when a Challenger's answer gives "none" (or a dash) as its alternative:
    pure negation, which the seed bans, asks for the part again as a missing one does."""
    given = plain(sections(text).get("ALTERNATIVE", ""))
    return ("[ALTERNATIVE]",) if given in _NO_ALTERNATIVE else ()


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
    digits = dict.fromkeys(_INVENTORY_ID.findall(text))  # a repeated id is looked at once
    return tuple(dict.fromkeys(f"E{int(d)}" for d in digits))


def points(section: str) -> tuple[str, ...]:
    """A section's numbered (or bulleted) points, each on one line; unnumbered text is one
    point (the text before the first number, or a line that continues a point)."""
    # Its non-blank lines, left-stripped, one a line: a point runs from its number to the next
    # number, its lines stripped and joined by spaces.
    text = "\n".join(map(str.lstrip, filter(str.strip, section.splitlines())))
    if not text:
        return ()
    starts = [found.span() for found in islice(_POINT_START.finditer(text), MAX_POINTS)]
    if not starts or starts[0][0] > 0:
        starts = [(0, 0), *starts[: MAX_POINTS - 1]]
    ends = [start - 1 for start, _ in starts[1:]] + [len(text)]
    return tuple(
        " ".join(map(str.rstrip, text[body:end].split("\n")))
        for (_, body), end in zip(starts, ends, strict=True)
    )


class EvidencePoints:
    """A role's [EVIDENCE] points and the inventory ids each cites, read once for the rules
    and the table."""

    def __init__(self, answer: str) -> None:
        self.points = points(sections(answer).get("EVIDENCE", ""))
        self.cited = tuple(cited_ids(point) for point in self.points)


class Grounding:
    """The Validator's [GROUNDING] lines, read once however many rulings look for theirs."""

    def __init__(self, section: str) -> None:
        found = filter(None, section.splitlines())
        self._lines = list(islice(found, MAX_POINTS))
        self._named: dict[str, str] = {}  # a point, plain -> the first line naming it
        for line in self._lines:
            label, _, rest = line.partition(":")
            self._named.setdefault(plain(label.lstrip("-* ")), rest)

    def of(self, point: str, index: int) -> str:
        """A ruling's grounding: the line naming its point, else the line in its place."""
        named = self._named.get(plain(point))
        if named is not None:
            return named
        return self._lines[index].partition(":")[2] if index < len(self._lines) else ""


def same_argument(key: str, said: str) -> bool:
    """One argument: one text holds the other (a short one at least half the other's)."""
    return key in said or (said in key and 2 * len(said) >= len(key))


def once_each(keyed: list[tuple[str, str]]) -> tuple[str, ...]:
    """The lines of `keyed` (key, line) whose key names an argument no earlier key named.

    Each key is compared with every earlier one (`same_argument`): on a hostile answer of
    thousands of points that is quadratic, so the comparisons may scan a budget of characters
    linear in the keys' length; past it only an equal key is the same argument (more lines
    are kept, never fewer)."""
    budget = _SAME_BUDGET_FACTOR * sum(len(key) for key, _ in keyed) + _SAME_BUDGET_FLOOR
    seen: list[str] = []
    equal: set[str] = set()
    lines: list[str] = []
    for key, line in keyed:
        if not key or key in equal:
            continue
        named = False
        for said in seen:
            budget -= len(key) + len(said) + _COMPARISON_COST
            if budget < 0:
                break
            if same_argument(key, said):
                named = True
                break
        if not named:
            seen.append(key)
            equal.add(key)
            lines.append(line)
    return tuple(lines)


@dataclass(frozen=True)
class Ruling:
    """One line of the Reconciler's [POINT-BY-POINT]."""

    point: str
    winner: str
    reasoning: str


def rulings(section: str) -> tuple[Ruling, ...]:
    """`<Point>: <Advocate | Challenger> — <reasoning>` lines; a line in another shape is kept
    whole as the point, so nothing is dropped (nor past MAX_POINTS: the rest is one point)."""
    lines = list(filter(str.strip, section.splitlines()))
    found = [_ruling(line) for line in lines[: MAX_POINTS - 1]]
    if len(lines) == MAX_POINTS:
        found.append(_ruling(lines[-1]))
    elif len(lines) > MAX_POINTS:
        found.append(Ruling(" ".join(map(str.strip, lines[MAX_POINTS - 1 :])), "-", "-"))
    return tuple(found)


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
