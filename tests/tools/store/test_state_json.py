"""What the store writes as JSON (a debate's state, each kind of effect) reads back the same."""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from handlers.core.effects import EFFECT_ADAPTER, Effect
from handlers.core.model import Debate, Steelman
from tests.migrations.old_rows import flat_state
from tools.store.debate_rows import debate_of, state_text

EFFECTS = typing.get_args(typing.get_args(Effect)[0])
ANY = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def _writable(value: Any) -> bool:
    """True if JSON can hold it: no lone surrogate in a text, no NaN or infinity (neither
    can be written so that it reads back)."""
    if isinstance(value, str):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, tuple):
        return all(_writable(item) for item in value)
    if dataclasses.is_dataclass(value):
        return all(_writable(getattr(value, f.name)) for f in dataclasses.fields(value))
    return True


def _check(value: Any, adapter: TypeAdapter[Any]) -> None:
    assert adapter.validate_json(adapter.dump_json(value).decode()) == value


@ANY
@given(st.one_of(*(st.from_type(kind) for kind in EFFECTS)).filter(_writable))
def test_every_kind_of_effect_reads_back_as_queued(effect: Effect) -> None:
    _check(effect, EFFECT_ADAPTER)


@ANY
@given(st.from_type(Debate).filter(_writable))
def test_a_debate_s_state_reads_back_as_stored(debate: Debate) -> None:
    assert debate_of(state_text(debate)) == debate
    # stored before the sub-records (and before Steelman): upgraded
    assert debate_of(flat_state(debate)) == replace(debate, steelman=Steelman())
