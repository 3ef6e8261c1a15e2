"""What happens to a debate (events, past tense); what the engine does about it (effects) is
in handlers/core/effects.py. Front ends build events and hand them to the engine's one verb,
`submit`; `kind` tells them apart where they are stored (the gateway's inbox)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from handlers.core.model import (
    Actor,
    Conclusion,
    Decision,
    FailureKind,
    ModeratorSource,
    ParsedReply,
    Participant,
    TurnMeta,
)
from handlers.core.poll_data import MinorityReport


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
class BudgetDecided:
    """An authorized person answered a pause (the budget, a debate converging without
    concluding, Claude's limits): one more round, conclude as is, declare consensus, or
    resume (after a limit)."""

    actor: Actor
    choice: Literal["extend", "conclude", "consensus", "resume"]
    at: int = 0  # the pause this answers, by its number (`Debate.pauses`; 0: the open one)
    kind: Literal["budget_decided"] = "budget_decided"


@dataclass(frozen=True)
class ProposalDeclined:
    """An authorized person pressed Not now."""

    actor: Actor
    kind: Literal["proposal_declined"] = "proposal_declined"


@dataclass(frozen=True)
class ProposalExpired:
    """Nobody answered the card in time."""

    kind: Literal["proposal_expired"] = "proposal_expired"


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
    kind: Literal["debater_failed"] = "debater_failed"


@dataclass(frozen=True)
class Judged:
    """The moderator decided what follows turn `turn`."""

    turn: int
    decision: Decision
    heard: int = 0  # how many of the debate's people lines the judgement saw
    kind: Literal["judged"] = "judged"


@dataclass(frozen=True)
class PeopleSaid:
    """A person typed a message in the debate's room while no question was open."""

    actor: Actor
    text: str
    kind: Literal["people_said"] = "people_said"


@dataclass(frozen=True)
class UserAnswered:
    """An authorized person answered the moderator's question."""

    actor: Actor
    answer: str
    question: int = 0  # the question it answers, by `Debate.question_number` (0: the open one)
    kind: Literal["user_answered"] = "user_answered"


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


@dataclass(frozen=True)
class TaskDone:
    """The moderator (or the format's fallback) performed task `task`."""

    task: str
    output: str
    source: ModeratorSource = ModeratorSource.GEMINI
    kind: Literal["task_done"] = "task_done"


@dataclass(frozen=True)
class MinorityReported:
    """The minority report is written (by the moderator, or the rules), its quotes checked."""

    report: MinorityReport
    kind: Literal["minority_reported"] = "minority_reported"


@dataclass(frozen=True)
class TimerDue:
    """The debate's stored timer is due: the people's poll ends, or a usage limit reset."""

    kind: Literal["timer_due"] = "timer_due"


@dataclass(frozen=True)
class PollClosed:
    """The poll was read once ended: votes per answer (`lost`: its message was gone)."""

    counts: tuple[int, ...]
    lost: bool = False
    kind: Literal["poll_closed"] = "poll_closed"


@dataclass(frozen=True)
class SkipRequested:
    """An authorized person pressed Skip: the turn being answered is skipped."""

    actor: Actor
    seat: str = ""  # the ask the button was shown for: this seat's turn `turn` (empty: any)
    turn: int = 0
    kind: Literal["skip_requested"] = "skip_requested"


Event = Annotated[
    ProposalApproved
    | FormatChosen
    | OptionChosen
    | BudgetChosen
    | BudgetDecided
    | ProposalDeclined
    | ProposalExpired
    | ReplyReceived
    | DebaterFailed
    | Judged
    | UserAnswered
    | PeopleSaid
    | StopRequested
    | SkipRequested
    | ConclusionReady
    | TaskDone
    | MinorityReported
    | TimerDue
    | PollClosed,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
