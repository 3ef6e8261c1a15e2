"""What the store writes as JSON (a debate's state, each kind of effect) reads back the same,
and is the data pydantic itself would have written."""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from datetime import datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from handlers.core.effects import EFFECT_ADAPTER, Effect, PostTurn
from handlers.core.model import Debate
from tools.store.debates import _DEBATE
from tools.store.state_json import dumps

EFFECTS = typing.get_args(typing.get_args(Effect)[0])
ANY = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def _writable(value: Any) -> bool:
    """True if JSON can hold it: no lone surrogate in a text, no NaN or infinity (neither
    writer can write those so that they read back)."""
    if isinstance(value, str):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, tuple):
        return all(_writable(item) for item in value)
    if dataclasses.is_dataclass(value):
        return all(_writable(getattr(value, f.name)) for f in dataclasses.fields(value))
    return True


def _as_data(text: str) -> Any:
    """The JSON's data, each datetime as its value (pydantic writes UTC as Z, orjson +00:00)."""

    def value(item: Any) -> Any:
        if isinstance(item, str) and len(item) >= 19 and item[4:5] == "-" and item[10:11] == "T":
            try:
                return datetime.fromisoformat(item.replace("Z", "+00:00"))
            except ValueError:
                return item
        if isinstance(item, list):
            return [value(i) for i in item]
        if isinstance(item, dict):
            return {k: value(v) for k, v in item.items()}
        return item

    return value(json.loads(text))


def _check(value: Any, adapter: TypeAdapter[Any]) -> None:
    written = dumps(value, adapter)
    assert adapter.validate_json(written) == value
    assert _as_data(written) == _as_data(adapter.dump_json(value).decode())


@ANY
@given(st.one_of(*(st.from_type(kind) for kind in EFFECTS)).filter(_writable))
def test_every_kind_of_effect_reads_back_as_queued(effect: Effect) -> None:
    _check(effect, EFFECT_ADAPTER)


@ANY
@given(st.from_type(Debate).filter(_writable))
def test_a_debate_s_state_reads_back_as_stored(debate: Debate) -> None:
    _check(debate, _DEBATE)


def test_what_orjson_cannot_write_is_written_as_pydantic_writes_it() -> None:
    huge = PostTurn(turn=2**70)  # past 64 bits
    assert EFFECT_ADAPTER.validate_json(dumps(huge, EFFECT_ADAPTER)) == huge
