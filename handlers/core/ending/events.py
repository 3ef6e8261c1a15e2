"""The ending feature's events (past tense): what front ends and the runner tell the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from handlers.core.model import (
    Actor,
    Conclusion,
)


@dataclass(frozen=True)
class StopRequested:
    """An authorized person pressed Stop."""

    actor: Actor
    kind: Literal["stop_requested"] = "stop_requested"


@dataclass(frozen=True)
class ConclusionReady:
    """The moderator wrote the Conclusion."""

    conclusion: Conclusion
    kind: Literal["conclusion_ready"] = "conclusion_ready"
