"""The card feature's events (past tense): what front ends and the runner tell the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from handlers.core.model import (
    Actor,
    Participant,
)


@dataclass(frozen=True)
class ProposalApproved:
    """An authorized person pressed Open; the roster and format are fixed now."""

    actor: Actor
    roster: tuple[Participant, ...] = ()  # empty: the debate's default roster
    format: str = ""  # empty: the debate's format as stored
    pauses_at_budget: bool = False  # at max_rounds, wait for the people (BUDGET_PAUSE)
    options: tuple[tuple[str, str], ...] = ()  # the format's options chosen (or defaulted)
    poll_hours: int = 0  # POLL_HOURS: a stalemate ends in the people's poll (0: no poll)
    budget_usd: float = 0.0  # BUDGET_USD: the people's budget in dollars (0: rounds only)
    kind: Literal["proposal_approved"] = "proposal_approved"


@dataclass(frozen=True)
class FormatChosen:
    """An authorized person picked a format on the card (it runs once the card is opened)."""

    actor: Actor
    format: str
    kind: Literal["format_chosen"] = "format_chosen"


@dataclass(frozen=True)
class OptionChosen:
    """An authorized person set one of the format's options on the card (`key` = `value`)."""

    actor: Actor
    key: str
    value: str
    kind: Literal["option_chosen"] = "option_chosen"


@dataclass(frozen=True)
class BudgetChosen:
    """An authorized person picked the round budget on the card."""

    actor: Actor
    rounds: int
    kind: Literal["budget_chosen"] = "budget_chosen"


@dataclass(frozen=True)
class ProposalDeclined:
    """An authorized person pressed Not now."""

    actor: Actor
    kind: Literal["proposal_declined"] = "proposal_declined"


@dataclass(frozen=True)
class ProposalExpired:
    """Nobody answered the card in time."""

    kind: Literal["proposal_expired"] = "proposal_expired"
