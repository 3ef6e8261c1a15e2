"""The card's slice of the debate: what the people chose before it began. Pure data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from handlers.core.kinds import ModeratorSource
from handlers.core.participants import DEFAULT_ROSTER, Participant


@dataclass(frozen=True)
class Added:
    """One person's text in one of the card's forms: each sender's is kept under their name."""

    key: str  # the card option
    user_id: int
    who: str
    text: str  # verbatim


@dataclass(frozen=True)
class Setup:
    """What the card fixed: the roster, the format and its options, the budget, who approved
    it and when, the language. Set at proposal and approval (the budget may grow at a pause)."""

    max_rounds: int  # the people's budget in rounds
    roster: tuple[Participant, ...] = DEFAULT_ROSTER  # fixed at approval
    format: str = "free"
    options: tuple[tuple[str, str], ...] = ()  # the format's options (fixed at approval)
    added: tuple[Added, ...] = ()  # the card's forms: one text per person and form
    pauses_at_budget: bool = False  # BUDGET_PAUSE: at max_rounds (or converging) the people decide
    poll_hours: int = 0  # POLL_HOURS at approval: a stalemate ends in a poll (0: never)
    approved_by: int | None = None
    started_at: datetime | None = None
    wiki_key: str = ""  # random, beside the id in its wiki folder's name: unique across databases
    # The language it is run in: its server's or channel's (`/debate config`) when proposed;
    # '' (stored before it was kept): the process's LANGUAGE. See `Strings.of`.
    language: str = ""
    # RULES: the people run the rule-based moderator (no model chosen or configured), so the
    # rules moderating is what they chose, not a fallback; GEMINI: a model moderates.
    moderator: ModeratorSource = ModeratorSource.GEMINI
