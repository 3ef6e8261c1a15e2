"""The people's poll at a stalemate: its values. Pure data, no I/O.

A stalemate pauses the debate (`Debate.paused == "poll"`); the poll then goes through its
stages: `report` (the moderator writes the minority report), `open` (the Discord poll runs
until its stored end time), `closing` (the bot reads it), `closed` (its result binds).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

MINORITY_TASK = "minority_report"  # the moderator's task at a stalemate

ANSWER_CHARS = 55  # Discord's limit for one poll answer
MAX_ANSWERS = 10  # Discord's limit of answers per poll
QUESTION_CHARS = 300  # Discord's limit for the poll's question


class PollStage(enum.StrEnum):
    """Where the people's poll stands."""

    REPORT = "report"
    OPEN = "open"
    CLOSING = "closing"
    CLOSED = "closed"


@dataclass(frozen=True)
class Side:
    """One participant's strongest case, as the minority report gives it."""

    participant: str  # the participant's id
    position: str  # the position in one sentence: the poll's answer (cut to 55 with a mark)
    case: str = ""  # the moderator's words on why this side holds
    quotes: tuple[str, ...] = ()  # checked by code: each appears in the side's own replies
    rejected: int = 0  # quotes the moderator gave that the replies do not hold (not shown)


@dataclass(frozen=True)
class MinorityReport:
    """Each side's strongest case, in its own words (quoted)."""

    sides: tuple[Side, ...] = ()
    by_rules: bool = False  # the moderator was unavailable: each side's stance line instead


@dataclass(frozen=True)
class PeoplePoll:
    """The poll of one debate: the report, the answers, and the votes once it closed."""

    hours: int
    stage: PollStage = PollStage.REPORT
    report: MinorityReport | None = None
    answers: tuple[str, ...] = ()  # the poll's answer texts, in order (one per side)
    counts: tuple[int, ...] = ()  # votes per answer, once closed
    closed_by: str = ""  # who ended it early (Stop); empty: it ran its time
    lost: bool = False  # the poll message was gone when it closed: no votes could be read

    @property
    def total(self) -> int:
        """Every vote cast."""
        return sum(self.counts)

    @property
    def leaders(self) -> tuple[int, ...]:
        """The answers with the most votes (none when nobody voted)."""
        top = max(self.counts, default=0)
        return () if top == 0 else tuple(i for i, n in enumerate(self.counts) if n == top)

    @property
    def winner(self) -> int | None:
        """The answer the people chose: the one with most votes; None on a tie or no votes."""
        leaders = self.leaders
        return leaders[0] if len(leaders) == 1 else None
