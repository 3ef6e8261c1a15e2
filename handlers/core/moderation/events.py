"""The moderation feature's events (past tense): what front ends and the runner tell the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from handlers.core.model import (
    Decision,
    ModeratorSource,
)


@dataclass(frozen=True)
class Judged:
    """The moderator decided what follows turn `turn`."""

    turn: int
    decision: Decision
    heard: int = 0  # how many of the debate's people lines the judgement saw
    kind: Literal["judged"] = "judged"


@dataclass(frozen=True)
class TaskDone:
    """The moderator (or the format's fallback) performed task `task`."""

    task: str
    output: str
    source: ModeratorSource = ModeratorSource.GEMINI
    kind: Literal["task_done"] = "task_done"
