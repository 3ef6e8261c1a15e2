"""The turns feature's events (past tense): what front ends and the runner tell the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from handlers.core.model import (
    Actor,
    FailureKind,
    ParsedReply,
    TurnMeta,
)


@dataclass(frozen=True)
class ReplyReceived:
    """A debater answered turn `turn`."""

    seat: str  # the participant's id
    turn: int
    text: str
    raw: str
    meta: TurnMeta
    heard: int = 0  # how many of the debate's people lines its brief carried
    parsed: ParsedReply | None = None  # parsed once by the runner (off the loop when large)
    concession: str = ""  # a move toward the others: "quoted", or "unquoted" (no real quote)
    kind: Literal["reply_received"] = "reply_received"


@dataclass(frozen=True)
class DebaterFailed:
    """A debater's turn failed (timeout, rate limit, a missing session, ...)."""

    seat: str  # the participant's id
    turn: int
    failure: FailureKind
    detail: str = ""
    retry_after: float | None = None
    cost_usd: float = 0.0  # what the failed call still cost, on the seat's account
    kind: Literal["debater_failed"] = "debater_failed"


@dataclass(frozen=True)
class SkipRequested:
    """An authorized person pressed Skip: the turn being answered is skipped."""

    actor: Actor
    seat: str = ""  # the ask the button was shown for: this seat's turn `turn` (empty: any)
    turn: int = 0
    kind: Literal["skip_requested"] = "skip_requested"
