"""`handlers.replacing.replace`: what `dataclasses.replace` gives, by a shorter way."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.model import Debate, OpenAsk, Phase
from handlers.replacing import replace
from tests.handlers.conftest import proposal


def _debate() -> Debate:
    start = datetime(2026, 12, 1, tzinfo=UTC)
    return Debate(
        id=7, proposal=proposal(), phase=Phase.SPEAKING, created_at=start, max_rounds=5,
        log=((1, "claude"), (2, "ag")), asked=(OpenAsk("claude", 3),),
    )  # fmt: skip


@given(turns=st.integers(0, 99), summary=st.text(max_size=40), speaker=st.none() | st.text())
def test_a_copy_equals_what_dataclasses_replace_makes(
    turns: int, summary: str, speaker: str | None
) -> None:
    debate = _debate()
    changes = {"turns": turns, "summary": summary, "speaker": speaker}
    copy = replace(debate, **changes)  # type: ignore[arg-type]
    assert copy == dataclasses.replace(debate, **changes)  # type: ignore[arg-type]
    assert type(copy) is Debate and copy is not debate
    assert debate.turns == 0 and debate.summary == ""  # the original is untouched
    assert hash(copy) == hash(dataclasses.replace(debate, **changes))  # type: ignore[arg-type]


def test_the_copy_is_frozen_like_the_original() -> None:
    copy = replace(_debate(), turns=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.turns = 4  # type: ignore[misc]


def test_an_unknown_field_is_refused_as_dataclasses_replace_refuses_it() -> None:
    with pytest.raises(TypeError, match="nosuch"):
        replace(_debate(), nosuch=1)  # type: ignore[call-arg]


@dataclass(frozen=True)
class _Checked:
    """A class whose __init__ does more than store its fields."""

    value: int
    doubled: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "doubled", self.value * 2)


def test_a_class_with_more_in_its_init_goes_through_dataclasses_replace() -> None:
    assert replace(_Checked(2), value=5).doubled == 10  # __post_init__ ran for the copy


def test_an_instance_holding_more_than_its_fields_goes_through_dataclasses_replace() -> None:
    debate = _debate()
    object.__setattr__(debate, "cached", "stale")  # as a cached_property would leave it
    copy = replace(debate, turns=3)
    assert copy.turns == 3 and "cached" not in vars(copy)


@dataclass(frozen=True)
class _Scaled:
    """A class with an init-only value (an InitVar): not a field of the copy."""

    value: int
    scale: InitVar[int] = 1

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, "value", self.value * scale)


def test_a_class_with_an_init_only_value_goes_through_dataclasses_replace() -> None:
    assert replace(_Scaled(2), value=3, scale=10).value == 30
