"""Automatic answers for the fake Gemini: valid JSON made up from the schema a request asked
for, shaped by a few rules so that a whole debate can run against the fake."""

from __future__ import annotations

import json
import math
import re
from typing import Any

_FENCED_JSON = re.compile(r"```json\s*\n(.*?)\n```", re.DOTALL)
_AGREE = re.compile(r"stance\W{1,4}agree\b", re.IGNORECASE)
_STANCES = re.compile(r"stances: (.+?); next in order")  # the judge's state line
_DEBATE_MARKERS = ("vs", "할까", "decide", "결정", "아니면", "should we", "정하")
_LEDGER_ID = re.compile(r"^([AMQ]\d+): ", re.MULTILINE)  # the front page's prompt lists them
_PARTICIPANTS = re.compile(r"^THE PARTICIPANTS \(id: name\): (.+)$", re.MULTILINE)


# The Decisions stand-in's cues: a line that weighs options, and a line that closes a question.
_OPEN_CUES = (
    "할까",
    "할지",
    "갈지",
    "나을까",
    "고민",
    "장단점",
    "애매",
    "결정이 필요",
    "정해야",
    "정합시다",
    " vs",
    "should we",
    "which one",
    "better",
    "trade-off",
    "pros and cons",
    "not sure",
    "instead of",
    "prefer",
    "disagree",
    "let's debate",
    "choose",
    "devemos",
    "qual é melhor",
)
_CLOSED_CUES = ("decided", "settled", "결정했", "정했어", "done deal", "we went with", "고쳤어요")
_RECENT_LINES = 10


def decision_probability(text: str) -> float:
    """The fake Decisions API's P(an open decision), from the input's words only: a logistic
    of how many of the last ten lines weigh options and what share of them do (three lines
    that all weigh options are as open as a decision gets), less those that close a question.
    A deterministic stand-in for a model, so the benchmark's pipeline can be measured
    offline."""
    lines = [line.lower() for line in text.splitlines() if line.strip()][-_RECENT_LINES:]
    weighing = sum(any(cue in line for cue in _OPEN_CUES) for line in lines)
    closing = sum(any(cue in line for cue in _CLOSED_CUES) for line in lines)
    share = weighing / len(lines) if lines else 0.0
    logit = -3.0 + 0.9 * weighing + 3.0 * share - 1.5 * closing
    return round(1 / (1 + math.exp(-logit)), 4)


def schema_in_prompt(text: str) -> dict[str, Any] | None:
    """The last ```json block of the prompt that is a JSON schema."""
    for block in reversed(_FENCED_JSON.findall(text)):
        try:
            obj = json.loads(block)
        except ValueError:
            continue
        if isinstance(obj, dict) and "properties" in obj:
            return obj
    return None


def rule_answer(schema: dict[str, Any], text: str) -> dict[str, Any]:
    """Fill the schema; detection says yes when the chat has a decision marker, judging
    concludes once two seats agree (the state's stances, else two `stance: agree` in the
    input); a format's task is answered in its own shape (rule_task)."""
    made = make_value(schema, schema, "")
    if not isinstance(made, dict):
        return {}
    rule_task(made, text)
    if "debate_worthy" in made:
        worthy = any(marker in text.lower() for marker in _DEBATE_MARKERS)
        made.update(debate_worthy=worthy, confidence=0.9 if worthy else 0.1)
        made.update(topic="auto topic", question="Which option should we choose?")
        made.update(suggested_format="free", format_reason="an open choice between options")
    if "action" in made:
        made["action"] = "conclude" if _agreeing(text) >= 2 else "continue"
        made["next_speaker"] = None
        made["consensus"] = 0.9 if made["action"] == "conclude" else 0.4
    return made


def _agreeing(text: str) -> int:
    """How many seats agree: the judge's state line lists each seat's latest stance."""
    stances = _STANCES.search(text)
    if stances is None:
        return len(_AGREE.findall(text))
    return sum(part.strip().endswith(" agree") for part in stances.group(1).split(","))


def rule_task(made: dict[str, Any], text: str) -> None:
    """A front page names every ledger id of its prompt (else it would be asked again); a
    minority report has a side per participant its prompt lists."""
    if {"markdown", "svg"} <= set(made):
        ids = _LEDGER_ID.findall(text)
        made.update(markdown="auto front page: " + ", ".join(f"({i})" for i in ids), svg="")
    listed = _PARTICIPANTS.search(text)
    if "sides" in made and listed is not None:
        seats = [part.split(":")[0].strip() for part in listed.group(1).split(",")]
        made["sides"] = [
            {"participant": seat, "position": f"auto position of {seat}", "case": "", "quotes": []}
            for seat in seats
        ]


def make_value(node: dict[str, Any], root: dict[str, Any], name: str) -> Any:
    """A plausible value for a JSON-schema or OpenAPI-schema node."""
    node = _resolve(node, root)
    options = node.get("anyOf") or node.get("any_of")
    if options:
        real = [o for o in options if _type(_resolve(o, root)) != "null"]
        return make_value(real[0], root, name) if real else None
    if node.get("enum"):
        return node["enum"][0]
    kind = _type(node)
    if kind == "object":
        props = node.get("properties") or {}
        return {key: make_value(sub, root, key) for key, sub in props.items()}
    if kind == "array":
        return [make_value(node.get("items") or {}, root, name)]
    if kind in ("number", "integer"):
        low = float(node.get("minimum", 0))
        high = float(node.get("maximum", low + 1))
        middle = (low + high) / 2
        return int(middle) if kind == "integer" else middle
    if kind == "boolean":
        return False
    return f"auto {name}".strip()


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        return dict(target)
    return node


def _type(node: dict[str, Any]) -> str:
    kind = node.get("type", "")
    if isinstance(kind, list):
        kind = next((k for k in kind if str(k).lower() != "null"), "null")
    if not kind and "properties" in node:
        return "object"
    return str(kind).lower()
