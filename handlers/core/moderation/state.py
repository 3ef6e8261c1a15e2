"""The moderator's slice of the debate: its memory between judgements. Pure data."""

from __future__ import annotations

from dataclasses import dataclass

from handlers.core.kinds import ModeratorSource
from handlers.core.moderation.claims import Claim


@dataclass(frozen=True)
class Moderation:
    """The moderator's memory: its summary and notes, the claim board, the consensus meter,
    the Working-Document, and the format's moderator tasks with their outputs."""

    summary: str = ""
    note: str = ""  # the moderator's addition for the next brief
    notes: tuple[tuple[int, str], ...] = ()  # (turn, the moderator's note), for the export
    source: ModeratorSource = ModeratorSource.GEMINI
    fell_back: bool = False  # the moderator's rules stood in at least once
    heard: int = 0  # how many of the people's lines its judgements got
    consensus_trend: tuple[float, ...] = ()  # the moderator's consensus estimates, latest last
    claims: tuple[Claim, ...] = ()  # the live claim board
    working_document: str = ""
    outputs: tuple[tuple[str, str], ...] = ()  # moderator task -> its output, verbatim
    tasks: tuple[str, ...] = ()  # the moderator tasks the current step still waits for
