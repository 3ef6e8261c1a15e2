"""The boardroom's reply contract, read tolerantly: a JSON object, or the seed's numbered
layout (`1. VOTE: YES`, `1. 투표: 찬성`, `1. VOTO: SIM`, then the sections in order)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from handlers.core.model import ParsedReply

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
_SECTION = re.compile(r"^\s*(?:#+\s*)?(?:\*\*)?(\d)[.)]\s*(?:\*\*)?", re.MULTILINE)
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)]|[a-z][.)])\s+")
_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n")
_DECODER = json.JSONDecoder()


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


_ALL = ("vote", "argument", "risks", "conditions", "metrics", "why_changed", "agreement",
        "disagreement", "insight", "consensus")  # fmt: skip
_LISTS = frozenset({"risks", "metrics"})


def vote_of(text: str) -> str | None:
    """The vote a short text names first, if any."""
    words = re.findall(r"[\w']+", text.casefold())
    for word in words[:6]:
        for vote, names in _VOTE_WORDS.items():
            if word in names:
                return vote
    return None


def parse_position(text: str, round_number: int) -> Position:
    """The contract's parts of a reply; a reply in neither layout yields an empty Position."""
    block = _json_block(text)
    if block is not None:
        return _from_json(block)
    return _from_numbered(text, ROUND1_FIELDS if round_number == 1 else ROUND2_FIELDS)


def parse_contract(text: str) -> ParsedReply:
    """The engine's view of a boardroom reply: all of it is the opinion."""
    structured = _json_block(text) is not None or bool(_SECTION.search(text))
    return ParsedReply(opinion=text, structured=structured)


def _from_json(block: dict[str, Any]) -> Position:
    values: dict[str, Any] = {}
    for key, value in block.items():
        name = _JSON_ALIASES.get(key, key)
        if name not in _ALL:
            continue
        if name == "vote":
            values[name] = vote_of(str(value))
        elif name in _LISTS:
            items = value if isinstance(value, list) else [value]
            values[name] = tuple(str(item).strip() for item in items if str(item).strip())
        else:
            values[name] = str(value).strip()
    return Position(**values)


def _from_numbered(text: str, fields: tuple[str, ...]) -> Position:
    # Sections come in rising order: a "1." inside section 5 is a list item, not a section.
    marks: list[re.Match[str]] = []
    for mark in _SECTION.finditer(text):
        number = int(mark.group(1))
        if 1 <= number <= len(fields) and (not marks or number > int(marks[-1].group(1))):
            marks.append(mark)
    values: dict[str, Any] = {}
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        body = _drop_label(text[mark.end() : end])
        name = fields[int(mark.group(1)) - 1]
        if name == "vote":
            values[name] = vote_of(body)
        elif name in _LISTS:
            values[name] = _items(body)
        else:
            values[name] = body.strip()
    return Position(**values)


def _drop_label(body: str) -> str:
    """`VOTE: YES` -> `YES`: the section's label up to its colon, on the first line."""
    first, _, rest = body.partition("\n")
    label, colon, value = first.partition(":")
    if colon and len(label) <= 60:
        first = value
    return f"{first.strip(' *')}\n{rest}".strip()


def _items(body: str) -> tuple[str, ...]:
    lines = [line for line in body.splitlines() if line.strip()]
    bullets = [_ITEM.sub("", line).strip() for line in lines if _ITEM.match(line)]
    return tuple(bullets) if bullets else tuple(line.strip() for line in lines)


def _json_block(text: str) -> dict[str, Any] | None:
    """The last JSON object with a vote in it (fenced or not)."""
    starts = [m.end() for m in _FENCE.finditer(text)]
    starts += [m.start() for m in re.finditer(r"\{\s*\"", text)]
    for start in sorted(set(starts), reverse=True):
        try:
            obj, _ = _DECODER.raw_decode(text, _skip_space(text, start))
        except ValueError:
            continue
        if isinstance(obj, dict) and ("vote" in obj or "final_vote" in obj):
            return obj
    return None


def _skip_space(text: str, start: int) -> int:
    while start < len(text) and text[start].isspace():
        start += 1
    return start
