"""Values as the JSON text the store keeps. JSON text cannot carry a lone surrogate (half of a
UTF-16 pair, which a hostile reply or a broken client can send), so such a character in a
stored state, effect, event or parsed reply is written as its visible escape (`\\ud800`, six
characters) instead of making the step impossible to store. The turn itself keeps every byte
(its text and raw output are stored as exact UTF-8)."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import TypeAdapter
from pydantic_core import PydanticSerializationError

T = TypeVar("T")
_LONE = re.compile(r"[\ud800-\udfff]")


def storable(adapter: TypeAdapter[T], value: T) -> str:
    """`value` as JSON text; a lone surrogate in it as its visible escape."""
    try:
        return adapter.dump_json(value).decode()
    except PydanticSerializationError:  # only a lone surrogate makes valid values unwritable
        return json.dumps(_visible(adapter.dump_python(value, mode="json")), ensure_ascii=False)


def _visible(value: Any) -> Any:
    """The plain JSON value with every lone surrogate in its strings escaped visibly."""
    if isinstance(value, str):
        return _LONE.sub(lambda m: f"\\u{ord(m.group()):04x}", value)
    if isinstance(value, dict):
        return {_visible(k): _visible(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_visible(item) for item in value]
    return value
