"""`replace` for the engine's frozen dataclasses: `dataclasses.replace`, at a sixth of the cost.

The engine changes its state by copying it (`replace(debate, turns=3)`) about a dozen times per
turn, and `Debate` has some fifty fields: `dataclasses.replace` walks every field and calls the
generated `__init__` (a frozen one sets each field through `object.__setattr__`), about 17 us a
copy, most of the state machine's time. A class whose `__init__` only stores its fields (no
`__post_init__`, no InitVar, every field an init field, no `__slots__`) is copied here instead:
its `__dict__`, with the changes, in a new instance. Any other dataclass goes through
`dataclasses.replace` as before. Type checkers see `dataclasses.replace` itself, so every call's
field names and value types are checked as before.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

_PLAIN: dict[type, frozenset[str] | None] = {}  # class -> its field names; None: not plain


def _plain_fields(cls: type) -> frozenset[str] | None:
    """The class's field names if its instances are exactly their `__dict__`, else None."""
    try:
        return _PLAIN[cls]
    except KeyError:
        pass
    if not dataclasses.is_dataclass(cls):
        names = None
    else:
        fields = dataclasses.fields(cls)  # the real fields: no ClassVar, no InitVar
        plain = (
            len(fields) == len(cls.__dataclass_fields__)  # none of those either
            and not hasattr(cls, "__post_init__")
            and "__slots__" not in vars(cls)
            and all(f.init for f in fields)
        )
        names = frozenset(f.name for f in fields) if plain else None
    _PLAIN[cls] = names
    return names


def _replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance `obj` with `changes` (as `dataclasses.replace`)."""
    cls = type(obj)
    names = _plain_fields(cls)
    held = getattr(obj, "__dict__", None)
    if names is None or held is None or len(held) != len(names):  # not only its fields
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    unknown = changes.keys() - names
    if unknown:  # the error dataclasses.replace raises
        name = min(unknown)
        raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument {name!r}")
    new = object.__new__(cls)
    state = new.__dict__
    state.update(held)
    state.update(changes)
    return new


__all__ = ["replace"]

if TYPE_CHECKING:
    from dataclasses import replace
else:
    replace = _replace
