"""The spending feature's events (past tense): what front ends and the runner tell the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class TimerDue:
    """The debate's stored timer is due: the people's poll ends, or a usage limit reset."""

    kind: Literal["timer_due"] = "timer_due"
