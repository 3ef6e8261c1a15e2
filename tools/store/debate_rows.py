"""A debate's state as the store keeps it: JSON text, read back into a `Debate`.

A state stored before `Debate` was split into sub-records held every field at its top level;
it is upgraded here, at load, the one place that knows that layout (`FLAT_FIELDS`), and is
stored in the new layout at its next step."""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter, ValidationError

from handlers.core.model import Debate
from tools.store.json_text import storable

_DEBATE = TypeAdapter(Debate)

# The flat layout's fields that moved into a sub-record: field -> (sub-record, its name there).
# The rest (id, proposal, phase, created_at, poll, spend) kept their place.
FLAT_FIELDS: dict[str, tuple[str, str]] = {
    **{
        name: ("setup", name)
        for name in [
            "max_rounds",
            "roster",
            "format",
            "options",
            "added",
            "pauses_at_budget",
            "poll_hours",
            "approved_by",
            "started_at",
            "wiki_key",
            "language",
            "moderator",
        ]
    },
    **{
        name: ("floor", name)
        for name in [
            "round",
            "order",
            "spoken",
            "speaker",
            "turns",
            "attempt",
            "skipped",
            "step",
            "asked",
            "step_turns",
            "log",
            "late",
            "stances",
            "unquoted",
            "faltered",
        ]
    },
    **{
        name: ("moderation", name)
        for name in [
            "summary",
            "note",
            "notes",
            "fell_back",
            "consensus_trend",
            "claims",
            "working_document",
            "outputs",
            "tasks",
        ]
    },
    "moderator_source": ("moderation", "source"),
    "moderator_heard": ("moderation", "heard"),
    "people": ("people", "lines"),
    "heard": ("people", "heard"),
    "user_question": ("people", "user_question"),
    "first_next_round": ("people", "first_next_round"),
    "paused": ("people", "paused"),
    "pauses": ("people", "pauses"),
    "people_question": ("people", "debater_question"),
    "cost_usd": ("spend", "cost_usd"),
    "resumes_at": ("spend", "resumes_at"),
    "benched": ("spend", "benched"),
    "ended_at": ("ending", "ended_at"),
    "outcome": ("ending", "outcome"),
    "failure": ("ending", "failure"),
    "conclusion": ("ending", "conclusion"),
}


def state_text(debate: Debate) -> str:
    """The debate as the JSON text the store keeps."""
    return storable(_DEBATE, debate)


def debate_of(text: str) -> Debate:
    """The stored state as a `Debate`, a flat one (stored before the sub-records) upgraded."""
    try:
        return _DEBATE.validate_json(text)
    except ValidationError:
        raw = json.loads(text)
        if not isinstance(raw, dict) or "setup" in raw:
            raise
        return _DEBATE.validate_python(upgraded(raw))


def upgraded(flat: dict[str, Any]) -> dict[str, Any]:
    """A flat state's fields, each moved into its sub-record."""
    nested: dict[str, Any] = {}
    parts: dict[str, dict[str, Any]] = {"spend": dict(flat.get("spend") or {})}
    for name, value in flat.items():
        if name in FLAT_FIELDS:
            part, field = FLAT_FIELDS[name]
            parts.setdefault(part, {})[field] = value
        elif name != "spend":
            nested[name] = value
    return nested | parts
