"""What a format answers when asked what happens next: one plan (ask, judge, end, a task,
a question to the people), which the engine's steps (handlers/core/turns/steps.py) carry out."""

from __future__ import annotations

from dataclasses import dataclass

from handlers.core.effects import Effect
from handlers.core.model import Debate, Outcome, UserQuestion


@dataclass(frozen=True)
class AskStep:
    """Ask `participants` at once (each with its own brief); `debate` carries the format's
    own state moved on (round, order, ...)."""

    debate: Debate
    step: str
    participants: tuple[str, ...]
    notices: tuple[Effect, ...] = ()  # said before the asks go out
    tasks: tuple[str, ...] = ()  # moderator tasks run alongside the asks (same step)


@dataclass(frozen=True)
class JudgeStep:
    """Let the moderator judge the latest turn."""

    debate: Debate


@dataclass(frozen=True)
class EndStep:
    """The debate ends: the Conclusion is written."""

    debate: Debate
    outcome: Outcome
    effects: tuple[Effect, ...] = ()  # the format's closing effects (pages, summary)


@dataclass(frozen=True)
class TaskStep:
    """Let the moderator perform a task of the format (a synthesis, a ledger, a page)."""

    debate: Debate
    task: str


@dataclass(frozen=True)
class PeopleStep:
    """Put a question to the people and wait; their answer goes to `Format.resumed`."""

    debate: Debate
    question: UserQuestion
    notices: tuple[Effect, ...] = ()


Plan = AskStep | JudgeStep | EndStep | TaskStep | PeopleStep
