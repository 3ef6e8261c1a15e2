"""The poll feature's events (past tense): what front ends and the runner tell the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from handlers.core.poll.state import MinorityReport


@dataclass(frozen=True)
class MinorityReported:
    """The minority report is written (by the moderator, or the rules), its quotes checked."""

    report: MinorityReport
    kind: Literal["minority_reported"] = "minority_reported"


@dataclass(frozen=True)
class PollClosed:
    """The poll was read once ended: votes per answer (`lost`: its message was gone)."""

    counts: tuple[int, ...]
    lost: bool = False
    kind: Literal["poll_closed"] = "poll_closed"
