"""What a feature package gives the engine: for each of its events, whether the debate has a use
for it now (`fits`) and the step it makes (`apply`). The state machine and the admission rule
are one table assembled from the packages (handlers/core/table.py), the way an event-sourced
aggregate keeps an event, its rule and its change in one place. Pure."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from handlers.core.model import Actor, Debate
from handlers.core.turns.steps import Step

E = TypeVar("E")


@dataclass(frozen=True)
class Moment:
    """What a step takes from outside the debate: the time and the randomness."""

    now: datetime
    rng: random.Random


def always(debate: Debate, event: object) -> bool:
    """A rule that lets its own `apply` tell (it changes nothing where it has no use)."""
    return True


@dataclass(frozen=True)
class Rule(Generic[E]):
    """One event's rule: `fits` (the debate, as it stands, has a use for it) and `apply`."""

    event: type[E]
    apply: Callable[[Debate, E, Moment], Step]
    fits: Callable[[Debate, E], bool] = always


Rules = Mapping[type[Any], Rule[Any]]


def rules(*given: Rule[Any]) -> Rules:
    """A package's rules by their event's class."""
    return {rule.event: rule for rule in given}


def who(actor: Actor) -> str:
    """How the thread names a person: their display name, else their id."""
    return actor.name or str(actor.user_id)
