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

from handlers.core.events import Event
from handlers.core.model import Debate
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


@dataclass(frozen=True)
class After(Generic[E]):
    """A feature's say after another feature's event made its step (Steelman marks a stored
    turn that owed it): `follow(debate before, event, step) -> step`."""

    event: type[E]
    follow: Callable[[Debate, E, Step], Step]


@dataclass(frozen=True)
class Control:
    """A control people have while a debate runs: Discord's button under the status message,
    the console's typed `/<name>`. `build(actor, *names)` makes its event from the person and
    what the control names (a Skip its turn and seat); `offered(debate)` gives, for each
    instance offered now, what it names (none: not offered). Its label is
    `front.button_<name>`."""

    name: str
    style: int  # Discord's button style: 1 primary, 2 secondary, 3 success, 4 danger
    build: Callable[..., Event]
    offered: Callable[[Debate], tuple[tuple[str, ...], ...]]


def rules(*given: Rule[Any]) -> Rules:
    """A package's rules by their event's class."""
    return {rule.event: rule for rule in given}
