"""The debate's domain values: pure data, no I/O."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime


class Seat(enum.StrEnum):
    """One of the two debaters' seats."""

    AG = "ag"
    CLAUDE = "claude"

    @property
    def opponent(self) -> Seat:
        """The other seat."""
        return Seat.CLAUDE if self is Seat.AG else Seat.AG


SEAT_NAMES = {Seat.AG: "AG", Seat.CLAUDE: "Claude"}  # the same in every language


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


_TERMINAL = frozenset({Phase.DECLINED, Phase.EXPIRED, Phase.CONCLUDED, Phase.STOPPED, Phase.FAILED})


class Outcome(enum.StrEnum):
    """Why a debate ended."""

    CONSENSUS = "consensus"
    MAX_ROUNDS = "max_rounds"
    STOPPED = "stopped"
    FAILED = "failed"


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


class WriteMode(enum.StrEnum):
    """How a wiki_action changes the Working-Document."""

    REPLACE = "replace"
    APPEND = "append"


@dataclass(frozen=True)
class WikiAction:
    """A debater's proposed edit, as it arrived (validated separately)."""

    page: str
    mode: str
    content: str


@dataclass(frozen=True)
class Question:
    """A question a debater asks, to the opponent or to the people."""

    to: str  # "opponent" or "user"
    text: str


@dataclass(frozen=True)
class ParsedReply:
    """A debater's reply split into its contract fields; `opinion` is never empty of text."""

    opinion: str
    wiki_action: WikiAction | None = None
    question: Question | None = None
    stance: Stance | None = None
    structured: bool = True  # False when no valid JSON block was found
    extra: str = ""  # the block's fields the contract does not use, as a Markdown list


@dataclass(frozen=True)
class TurnMeta:
    """What a debater's adapter measured for one turn."""

    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    num_turns: int = 0
    session_id: str | None = None
    denied_tools: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    """One stored debater reply."""

    debate_id: int
    number: int  # 1-based across the debate
    round: int
    seat: Seat
    text: str  # the reply exactly as the debater wrote it
    raw: str  # the adapter's raw output (CLI JSON, assembled messages)
    sha256: str  # of `raw`
    parsed: ParsedReply
    meta: TurnMeta
    at: datetime


@dataclass(frozen=True)
class UserQuestion:
    """A question the moderator put to the people, with answer options."""

    text: str
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    """The moderator's judgement after a reply."""

    action: Action
    next_seat: Seat | None = None
    note: str = ""  # appended to the relayed text: context and direction
    user_question: UserQuestion | None = None
    consensus: float = 0.0  # 0..1, the moderator's estimate
    summary: str = ""  # the updated running summary (the moderator's memory)
    source: ModeratorSource = ModeratorSource.GEMINI
    lasting: bool = True  # a RULES decision: True while the quota is spent, False for one step


@dataclass(frozen=True)
class Conclusion:
    """The Conclusion page's content."""

    decision: str
    agreed: tuple[str, ...] = ()
    open_issues: tuple[str, ...] = ()
    positions: tuple[tuple[Seat, str], ...] = ()
    next_steps: tuple[str, ...] = ()
    source: ModeratorSource = ModeratorSource.GEMINI


@dataclass(frozen=True)
class Proposal:
    """What detection found: a topic worth a debate, and who was talking."""

    channel_id: int
    topic: str
    question: str
    reason: str
    confidence: float
    context: str  # the chat excerpt the moderator saw
    participants: tuple[int, ...]  # user ids of the conversation
    participant_names: tuple[str, ...] = ()  # their display names, in the same order


@dataclass(frozen=True)
class Actor:
    """A person acting on a debate (a click or a typed answer)."""

    user_id: int
    name: str = ""
    is_approver: bool = False  # holds the configured approver role


@dataclass(frozen=True)
class Debate:
    """A debate's whole state: the engine's unit of storage."""

    id: int
    proposal: Proposal
    phase: Phase
    created_at: datetime
    max_rounds: int
    round: int = 0
    order: tuple[Seat, ...] = ()  # the current round's speaking order
    spoken: tuple[Seat, ...] = ()  # seats that spoke in the current round
    speaker: Seat | None = None  # who speaks (or is asked to) now
    turns: int = 0  # replies stored so far
    attempt: int = 0  # retries of the current turn
    skipped: int = 0  # consecutive skipped turns
    fresh_session: bool = False  # the next ask to `speaker` must start a new session
    relay_turn: int | None = None  # the turn whose text the next debater receives
    note: str = ""  # the moderator's addition for the next relay
    user_answer: str = ""  # the people's latest answer, context for the next relay
    user_question: UserQuestion | None = None
    first_next_round: Seat | None = None  # asked a question: answers first next round
    stances: tuple[tuple[Seat, Stance], ...] = ()
    summary: str = ""
    working_document: str = ""
    moderator_source: ModeratorSource = ModeratorSource.GEMINI
    cost_usd: float = 0.0
    started_at: datetime | None = None
    ended_at: datetime | None = None
    outcome: Outcome | None = None
    approved_by: int | None = None
    failure: str = ""  # the reason shown when the debate failed

    def stance_of(self, seat: Seat) -> Stance | None:
        """The seat's latest stated stance."""
        return dict(self.stances).get(seat)

    @property
    def participants(self) -> tuple[int, ...]:
        """The people of the detected conversation."""
        return self.proposal.participants


@dataclass(frozen=True)
class ChatLine:
    """One message of the watched conversation."""

    author_id: int
    author_name: str
    content: str
    at: datetime
    message_id: int = 0


@dataclass(frozen=True)
class Detection:
    """The moderator's verdict on a chat window."""

    debate_worthy: bool
    topic: str = ""
    question: str = ""
    reason: str = ""
    confidence: float = 0.0
    source: ModeratorSource = ModeratorSource.GEMINI


@dataclass(frozen=True)
class ModeratorView:
    """The moderator's bounded input: agenda, summary, last two turns and metadata."""

    debate: Debate
    last_turns: tuple[Turn, ...] = field(default_factory=tuple)
