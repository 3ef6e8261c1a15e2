"""The people feature's events (past tense): what front ends and the runner tell the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from handlers.core.model import (
    Actor,
)


@dataclass(frozen=True)
class UserAnswered:
    """An authorized person answered the moderator's question."""

    actor: Actor
    answer: str
    question: int = 0  # the question it answers, by `Debate.question_number` (0: the open one)
    kind: Literal["user_answered"] = "user_answered"


@dataclass(frozen=True)
class PeopleSaid:
    """A person typed a message in the debate's room while no question was open."""

    actor: Actor
    text: str
    kind: Literal["people_said"] = "people_said"


@dataclass(frozen=True)
class BudgetDecided:
    """An authorized person answered a pause (the budget, a debate converging without
    concluding, Claude's limits): one more round, conclude as is, declare consensus, or
    resume (after a limit)."""

    actor: Actor
    choice: Literal["extend", "conclude", "consensus", "resume"]
    at: int = 0  # the pause this answers, by its number (`Debate.pauses`; 0: the open one)
    kind: Literal["budget_decided"] = "budget_decided"
