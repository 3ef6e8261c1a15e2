"""The boardroom's reply contract, read tolerantly: a JSON object, or the seed's numbered
layout (`1. VOTE: YES`, `1. 투표: 찬성`, `1. VOTO: SIM`, then the sections in order).

Linear in the reply's length and never raising (the JSON is found by the reply parser's
budgeted scan): a hostile answer cannot stall the loop or fail the turn."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice
from typing import Any

from handlers.core.formats.line_marks import bodies, candidates
from handlers.core.model import ParsedReply
from handlers.core.reply.fields import Obj, Value, render_extra
from handlers.core.reply.parser import json_block

YES, NO, CONDITIONAL = "yes", "no", "conditional"
VOTES = (YES, NO, CONDITIONAL)
# Words that name a vote, in every language the bot speaks (longest first within a vote).
_VOTE_WORDS = {
    CONDITIONAL: ("conditional", "condicional", "조건부"),
    NO: ("não", "nao", "no", "반대", "아니오"),
    YES: ("yes", "sim", "찬성", "예"),
}
ROUND1_FIELDS = ("vote", "argument", "risks", "conditions", "metrics")
ROUND2_FIELDS = ("vote", "why_changed", "agreement", "disagreement", "insight", "consensus")
_JSON_ALIASES = {"final_vote": "vote", "consensus_condition": "consensus"}
_VOTE_KEYS = frozenset({"vote", "final_vote"})
_ROUND1_KEYS = frozenset(ROUND1_FIELDS)
_ROUND2_KEYS = frozenset({*ROUND2_FIELDS, *_JSON_ALIASES})
_ADVICE_KEYS = frozenset({"review"})  # the advisor's answer: the synthesis it reviewed
# Horizontal space only: `\s*` after `^` would rescan every run of blank lines (quadratic).
_MARK = re.compile(r"[ \t]*(?:#+[ \t]*)?(?:\*\*)?([1-9])[.)][ \t]*(?:\*\*)?")  # at a line
_CANDIDATE = re.compile(r"[1-9][.)]")
MAX_LINES = 5000  # lines holding a candidate mark, tried before the scan stops
_BULLET = re.compile(r"^[ \t]*(?:[-*•]|\d+[.)]|[a-z][.)])[ \t]+(\S.*)$", re.MULTILINE)
_LINE = re.compile(r"^[ \t]*(\S.*)$", re.MULTILINE)
MAX_ITEMS = 50


@dataclass(frozen=True)
class Position:
    """One participant's answer in one round, split into the contract's parts."""

    vote: str | None = None
    argument: str = ""
    risks: tuple[str, ...] = ()
    conditions: str = ""
    metrics: tuple[str, ...] = ()
    why_changed: str = ""
    agreement: str = ""
    disagreement: str = ""
    insight: str = ""
    consensus: str = ""

    def merged(self, later: Position) -> Position:
        """This answer completed by a later one (a repair): the later part wins where given."""
        values = {name: getattr(later, name) or getattr(self, name) for name in _ALL}
        return Position(**values)


_ALL = tuple(dict.fromkeys(ROUND1_FIELDS + ROUND2_FIELDS))
_LISTS = frozenset({"risks", "metrics"})
MIN_LISTED = 2  # the seed: at least two risks and two metrics
_NAMED = {"risks": "risks (2+)", "metrics": "metrics (2+)", "consensus": "consensus_condition"}


def vote_of(text: str) -> str | None:
    """The vote a short text names first, if any."""
    words = re.findall(r"[\w']+", text[:200].casefold())  # the first words are enough
    for word in words[:6]:
        for vote, names in _VOTE_WORDS.items():
            if word in names:
                return vote
    return None


def parse_position(text: str, round_number: int) -> Position:
    """The contract's parts of a reply; a reply in neither layout yields an empty Position.

    The member's own numbered layout, when it names a vote, wins over a JSON object in the
    text: such an object is then a quote (another member's `{"vote": "no"}`), since a reply
    that is itself JSON has no line starting `1.` outside its strings."""
    numbered = _from_numbered(text, ROUND1_FIELDS if round_number == 1 else ROUND2_FIELDS)
    if numbered.vote is not None:
        return numbered
    block = json_block(text, _VOTE_KEYS)
    return _from_json(block) if block is not None else numbered


def missing_parts(found: Position, round_number: int) -> tuple[str, ...]:
    """The contract's parts an answer lacks, named as in the contract (why_changed is optional;
    a list needs MIN_LISTED items)."""
    fields = ROUND1_FIELDS if round_number == 1 else ROUND2_FIELDS
    values = ((name, getattr(found, name)) for name in fields if name != "why_changed")
    return tuple(
        _NAMED.get(name, name)
        for name, value in values
        if (len(value) < MIN_LISTED if isinstance(value, tuple) else not value)
    )


def words_of(text: str, round_number: int) -> str:
    """An answer as a person reads it: a JSON object as the numbered layout of its parts
    (values, not JSON syntax); an answer in the numbered layout, or in neither, as it is."""
    fields = ROUND1_FIELDS if round_number == 1 else ROUND2_FIELDS
    block = json_block(text, _VOTE_KEYS)
    if block is None or _from_numbered(text, fields).vote is not None:
        return text
    found, lines = _from_json(block), []
    said = next((_text(block[key]).strip() for key in _VOTE_KEYS if key in block), "")
    for number, name in enumerate(fields, start=1):
        value = getattr(found, name)
        if isinstance(value, tuple):  # a list under its number, an item a line
            value = "".join(f"\n- {item}" for item in value)
        elif name == "vote" and value:
            value = f" {said.upper()}"  # the vote in the answer's own word (찬성, SIM)
        elif value:
            value = f" {value}"
        lines.append(f"{number}.{value}" if value else "")
    return "\n".join(line for line in lines if line)


def parse_contract(text: str) -> ParsedReply:
    """The engine's view of a boardroom reply: all of it is the opinion; the advisor's
    reviewed synthesis (a JSON object with its `review`) reads as what its review said."""
    advice = json_block(text, _ADVICE_KEYS)
    if advice is not None and isinstance(said := advice.get("review"), str) and said.strip():
        return ParsedReply(opinion=said.strip(), structured=True)
    block = json_block(text, _VOTE_KEYS)
    if block is not None and text.lstrip().startswith("{"):
        # An answer that is only a round's object (as a schema-checked answer is): its parts
        # in the numbered layout, every value in it; an object with more keeps its text.
        keys = set(block)
        round_number = 1 if keys <= _ROUND1_KEYS else 2 if keys <= _ROUND2_KEYS else 0
        if round_number:
            return ParsedReply(opinion=words_of(text, round_number), structured=True)
    structured = bool(_line_marks(text)) or block is not None
    return ParsedReply(opinion=text, structured=structured)


def _from_json(block: dict[str, Value]) -> Position:
    values: dict[str, Any] = {}
    for key, value in block.items():
        name = _JSON_ALIASES.get(key, key)
        if name not in _ALL:
            continue
        if name == "vote":
            values[name] = vote_of(_text(value))
        elif name in _LISTS:
            items = value if isinstance(value, list) else [value]
            values[name] = tuple(t for t in (_text(item).strip() for item in items) if t)
        else:
            values[name] = _text(value).strip()
    return Position(**values)


def _text(value: Value) -> str:
    """A JSON value as text: a string as written, anything else as a Markdown list."""
    if isinstance(value, str):
        return value
    if isinstance(value, Obj):
        return render_extra(list(value))
    if isinstance(value, list):
        return "\n".join(_text(item) for item in value)
    return "" if value is None else str(value).lower()


def _from_numbered(text: str, fields: tuple[str, ...]) -> Position:
    # Sections come in rising order: a "1." inside section 5 is a list item, not a section.
    marks: list[tuple[int, int, int]] = []  # (number, start, end of its mark)
    for number, start, end in _line_marks(text):
        if number <= len(fields) and (not marks or number > marks[-1][0]):
            marks.append((number, start, end))
    values: dict[str, Any] = {}
    for number, section in bodies(text, marks):
        body = _drop_label(section)
        name = fields[number - 1]
        if name == "vote":
            values[name] = vote_of(body)
        elif name in _LISTS:
            values[name] = _items(body)
        else:
            values[name] = body.strip()
    return Position(**values)


def _line_marks(text: str) -> list[tuple[int, int, int]]:
    """(number, start, end) of each section mark (`3.`, `**3)**`, `## 3.`) that opens a line."""
    marks: list[tuple[int, int, int]] = []
    for line, at in candidates(text, _CANDIDATE, MAX_LINES):
        found = _MARK.match(text, line)
        if found is not None and found.start(1) == at:
            marks.append((int(found.group(1)), found.start(), found.end()))
    return marks


def _drop_label(body: str) -> str:
    """`VOTE: YES` -> `YES`: the section's label up to its colon, on the first line."""
    first, _, rest = body.partition("\n")
    label, colon, value = first.partition(":")
    if colon and len(label) <= 60:
        first = value
    return f"{first.strip(' *')}\n{rest}".strip()


def _items(body: str) -> tuple[str, ...]:
    """The section's bullets (or, without any, its lines): the first MAX_ITEMS, which is
    more than a risk or metric list holds (the whole text stays the turn's)."""
    found = [m.group(1).strip() for m in islice(_BULLET.finditer(body), MAX_ITEMS)]
    if not found:
        found = [m.group(1).strip() for m in islice(_LINE.finditer(body), MAX_ITEMS)]
    return tuple(found)
