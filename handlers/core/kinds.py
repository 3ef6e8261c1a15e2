"""The debate's enumerations: phases, outcomes, stances, actions, failure kinds, pages."""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    """Where a debate stands."""

    PROPOSED = "proposed"  # the approval card waits for a click
    DECLINED = "declined"
    EXPIRED = "expired"
    SPEAKING = "speaking"  # a debater is working on its turn
    JUDGING = "judging"  # the moderator weighs the latest reply
    AWAITING_USER = "awaiting_user"  # the moderator asked the people a question
    CONCLUDING = "concluding"  # the Conclusion page is being written
    CONCLUDED = "concluded"
    STOPPED = "stopped"
    FAILED = "failed"

    @property
    def is_terminal(self) -> bool:
        """True once nothing more will happen in this debate."""
        return self in _TERMINAL

    @property
    def hears_people(self) -> bool:
        """True while the people may stop it or speak to it: it speaks, is judged or waits for
        them (not once it is concluding)."""
        return self in _HEARING

    @property
    def is_running(self) -> bool:
        """True between approval and the end."""
        return self in _RUNNING


_TERMINAL = frozenset({Phase.DECLINED, Phase.EXPIRED, Phase.CONCLUDED, Phase.STOPPED, Phase.FAILED})
_RUNNING = frozenset({Phase.SPEAKING, Phase.JUDGING, Phase.AWAITING_USER, Phase.CONCLUDING})
_HEARING = frozenset({Phase.SPEAKING, Phase.JUDGING, Phase.AWAITING_USER})


class Outcome(enum.StrEnum):
    """Why a debate ended."""

    CONSENSUS = "consensus"
    MAX_ROUNDS = "max_rounds"
    STOPPED = "stopped"
    FAILED = "failed"
    PEOPLE = "people"  # the people's poll decided a stalemate
    VERDICT = "verdict"  # the format's own decider ruled (adversarial Reconciler, boardroom vote)


class Stance(enum.StrEnum):
    """A debater's stance towards the other's position."""

    AGREE = "agree"
    PARTIAL = "partial"
    DISAGREE = "disagree"


class Action(enum.StrEnum):
    """What the moderator decides after a reply."""

    CONTINUE = "continue"
    ASK_USER = "ask_user"
    REDIRECT = "redirect"
    CONCLUDE = "conclude"


class ModeratorSource(enum.StrEnum):
    """Who made a moderator decision: the model, or the deterministic rules."""

    GEMINI = "gemini"
    RULES = "rules"


class FailureKind(enum.StrEnum):
    """Why a debater's turn failed; each kind has its own outcome in the engine."""

    RATE_LIMITED = "rate_limited"
    AUTH = "auth"
    SERVER = "server"
    UNREACHABLE = "unreachable"
    USAGE = "usage"
    TIMEOUT = "timeout"
    SESSION_MISSING = "session_missing"
    EMPTY = "empty"  # the call succeeded but carried no text: never an empty turn
    LIMIT = "limit"  # a usage limit that resets at a known time: the debate pauses until then
    CREDITS = "credits"  # refused until the people act (usage credits off): the seat stops
    # The seat's conversation outgrew its model's context window (a long debate): asked again
    # in a fresh session, briefed on the debate so far; skipped if even that is too long.
    CONTEXT_FULL = "context_full"
    BUDGET = "budget"  # stopped at what is left of the people's dollar budget: they decide

    @property
    def is_transient(self) -> bool:
        """True for failures that may pass if the turn is tried again later."""
        return self in _TRANSIENT


_TRANSIENT = frozenset(
    {
        FailureKind.RATE_LIMITED,
        FailureKind.SERVER,
        FailureKind.UNREACHABLE,
        FailureKind.TIMEOUT,
        FailureKind.EMPTY,
    }
)


class WikiPage(enum.StrEnum):
    """The four pages of a debate, by their path segment."""

    AGENDA = "agenda"
    WORKING_DOCUMENT = "working-document"
    ROUND_LOG = "round-log"
    CONCLUSION = "conclusion"
