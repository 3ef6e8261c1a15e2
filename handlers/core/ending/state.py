"""The ending's slice of the debate: the outcome and the Conclusion. Pure data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from handlers.core.kinds import ModeratorSource, Outcome


@dataclass(frozen=True)
class Conclusion:
    """The Conclusion page's content."""

    decision: str
    agreed: tuple[str, ...] = ()
    open_issues: tuple[str, ...] = ()
    positions: tuple[tuple[str, str], ...] = ()  # (participant id, position)
    next_steps: tuple[str, ...] = ()
    source: ModeratorSource = ModeratorSource.GEMINI


@dataclass(frozen=True)
class Ending:
    """How the debate ended: its outcome, the reason a failure gives, the Conclusion."""

    ended_at: datetime | None = None
    outcome: Outcome | None = None
    failure: str = ""  # the reason shown when the debate failed
    conclusion: Conclusion | None = None  # as posted at the end
