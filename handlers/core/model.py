"""The debate's domain values: pure data, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from handlers.core.card.state import Added, Setup
from handlers.core.ending.state import Conclusion, Ending
from handlers.core.kinds import (
    Action,
    FailureKind,
    ModeratorSource,
    Outcome,
    Phase,
    Stance,
    WikiPage,
)
from handlers.core.moderation.claims import ClaimUpdate
from handlers.core.moderation.state import Moderation
from handlers.core.participants import AG, CLAUDE, DEFAULT_ROSTER, GEMINI, Backend, Participant
from handlers.core.people.state import People, PeopleLine, UserQuestion
from handlers.core.poll.state import PeoplePoll
from handlers.core.spending.state import Spend, Window
from handlers.core.steelman.state import Steelman
from handlers.core.turns.state import Floor, OpenAsk

# Re-exported: the engine's values are all importable from here.
__all__ = [
    "AG",
    "CLAUDE",
    "DEFAULT_ROSTER",
    "GEMINI",
    "Action",
    "Added",
    "Backend",
    "Conclusion",
    "Ending",
    "FailureKind",
    "Floor",
    "Moderation",
    "ModeratorSource",
    "OpenAsk",
    "Outcome",
    "Participant",
    "People",
    "PeopleLine",
    "Phase",
    "Setup",
    "Stance",
    "UserQuestion",
    "WikiPage",
]


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
    convinced_by: str = ""  # a concession's quote of what convinced it


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
    window: Window | None = None  # Claude's usage window, when the CLI reported it
    person: bool = False  # typed by a person (a console seat): words no reply contract binds


@dataclass(frozen=True)
class Turn:
    """One stored debater reply."""

    debate_id: int
    number: int  # 1-based across the debate
    round: int
    seat: str  # the participant's id
    text: str  # the reply exactly as the debater wrote it
    raw: str  # the adapter's raw output (CLI JSON, assembled messages)
    sha256: str  # of `raw`
    parsed: ParsedReply
    meta: TurnMeta
    at: datetime


@dataclass(frozen=True)
class Decision:
    """The moderator's judgement after a reply."""

    action: Action
    next_seat: str | None = None  # a participant id
    note: str = ""  # appended to the relayed text: context and direction
    user_question: UserQuestion | None = None
    consensus: float = 0.0  # 0..1, the moderator's estimate
    summary: str = ""  # the updated running summary (the moderator's memory)
    source: ModeratorSource = ModeratorSource.GEMINI
    lasting: bool = True  # a RULES decision: True while the quota is spent, False for one step
    claims: tuple[ClaimUpdate, ...] = ()  # the claim board's updates


@dataclass(frozen=True)
class Precedent:
    """A past debate's Conclusion page related to a new proposal."""

    title: str
    url: str
    excerpt: str = ""
    because: tuple[str, ...] = ()  # the proposal's words it matched on


@dataclass(frozen=True)
class Proposal:
    """What detection found: a topic worth a debate, and who was talking."""

    channel_id: int
    topic: str
    question: str
    reason: str
    confidence: float
    context: str  # the chat excerpt the moderator saw
    people_ids: tuple[int, ...]  # Discord user ids of the people in the conversation
    people_names: tuple[str, ...] = ()  # their display names, in the same order
    suggested_format: str = ""  # the moderator's suggestion; empty: DEFAULT_FORMAT
    format_reason: str = ""  # why it fits, shown on the card
    # The boardroom's squad the moderator suggests for the kind of decision (seed 000), shown
    # on the card with its reason: member ids (at most five), the kind, why.
    squad: tuple[str, ...] = ()
    squad_kind: str = ""
    squad_reason: str = ""
    precedents: tuple[Precedent, ...] = ()  # past Conclusions found before the card is posted
    guild_id: int = 0  # the server it was heard in: its `/debate config` applies


@dataclass(frozen=True)
class Actor:
    """A person acting on a debate (a click or a typed answer)."""

    user_id: int
    name: str = ""
    is_approver: bool = False  # holds the configured approver role

    @property
    def shown_name(self) -> str:
        """How the thread names the person: their display name, else their id."""
        return self.name or str(self.user_id)


@dataclass(frozen=True)
class Debate:
    """A debate's whole state: the engine's unit of storage, one sub-record per concern
    (a state stored before the sub-records is upgraded at load: tools/store/debate_rows.py)."""

    id: int
    proposal: Proposal
    phase: Phase
    created_at: datetime
    setup: Setup
    floor: Floor = field(default_factory=Floor)
    moderation: Moderation = field(default_factory=Moderation)
    people: People = field(default_factory=People)
    poll: PeoplePoll | None = None  # the people's poll at a stalemate
    spend: Spend = field(default_factory=Spend)  # money and Claude's limits
    ending: Ending = field(default_factory=Ending)
    steelman: Steelman = field(default_factory=Steelman)

    def spoken_in(self, default: str) -> str:
        """The language it is run in: its own, else `default` (the process's LANGUAGE)."""
        return self.setup.language or default

    def output_of(self, task: str) -> str | None:
        """A moderator task's stored output, if it ran."""
        return dict(self.moderation.outputs).get(task)

    def option(self, name: str, default: str = "") -> str:
        """One format option's value."""
        return dict(self.setup.options).get(name, default)

    def added_by(self, key: str, user_id: int) -> str:
        """The text one person gave in the card's form `key` (empty: none)."""
        return next((a.text for a in self.setup.added if a.key == key and a.user_id == user_id), "")

    def added_text(self, key: str) -> str:
        """Everyone's text in the card's form `key`, in order, each under their name if known."""
        given = [
            f"{a.who}: {a.text}" if a.who else a.text for a in self.setup.added if a.key == key
        ]
        return "\n\n".join(given)

    def stance_of(self, seat: str) -> Stance | None:
        """The participant's latest stated stance."""
        return dict(self.floor.stances).get(seat)

    @property
    def people_ids(self) -> tuple[int, ...]:
        """The people of the detected conversation."""
        return self.proposal.people_ids

    def member(self, participant: str) -> Participant:
        """The roster's participant with this id (an unknown id gets a plain stand-in)."""
        for member in self.setup.roster:
            if member.id == participant:
                return member
        return Participant(participant, Backend.CLAUDE_CLI, participant)

    def name_of(self, participant: str) -> str:
        """The participant's display name."""
        return self.member(participant).name

    @property
    def ids(self) -> tuple[str, ...]:
        """The roster's participant ids, in roster order."""
        return tuple(member.id for member in self.setup.roster)

    @property
    def stored_turns(self) -> int:
        """At least how many turns are stored (to load them all): each is in `log`, and
        `floor.turns`, the highest number judged, covers a debate stored before `log` was kept."""
        return max(self.floor.turns, len(self.floor.log), 1)

    @property
    def last_number(self) -> int:
        """The highest turn number given out: a stored turn's, or one an answer may still come
        for (an open ask's, or a `floor.late` one's); the next ask takes the number after it, so
        none is used twice."""
        floor = self.floor
        given = (*(n for n, _ in floor.log), *(a.turn for a in (*floor.asked, *floor.late)))
        return max((floor.turns, *given))

    def heard_by(self, participant: str) -> int:
        """How many of the people's lines the participant's briefs have carried."""
        return dict(self.people.heard).get(participant, 0)

    @property
    def question_number(self) -> int:
        """The number of the people's open (or next) question: controls name it by this."""
        return len(self.answers) + 1

    @property
    def answers(self) -> tuple[PeopleLine, ...]:
        """The people's answers to questions, in order: the answer to question n is the n-th."""
        return tuple(line for line in self.people.lines if line.question)


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
    confidence: float | None = 0.0  # the model's own probability; None: none it could read
    source: ModeratorSource = ModeratorSource.GEMINI
    suggested_format: str = ""  # a format's name; empty (the rules): DEFAULT_FORMAT
    format_reason: str = ""
    squad: tuple[str, ...] = ()  # the boardroom's squad for the kind of decision (member ids)
    squad_kind: str = ""  # architecture, value, compliance, product, or other
    squad_reason: str = ""


@dataclass(frozen=True)
class ModeratorView:
    """The moderator's bounded input: agenda, summary, last two turns and metadata."""

    debate: Debate
    last_turns: tuple[Turn, ...] = field(default_factory=tuple)
    people: tuple[PeopleLine, ...] = ()  # what the people said since the last judgement
