"""What happens to a debate (events, past tense) and what the engine does about it (effects)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from handlers.model import (
    Actor,
    Conclusion,
    Decision,
    FailureKind,
    ParsedReply,
    Seat,
    TurnMeta,
    UserQuestion,
)

# ---- events ---------------------------------------------------------------


@dataclass(frozen=True)
class ProposalApproved:
    """An authorized person pressed Open."""

    actor: Actor


@dataclass(frozen=True)
class ProposalDeclined:
    """An authorized person pressed Not now."""

    actor: Actor


@dataclass(frozen=True)
class ProposalExpired:
    """Nobody answered the card in time."""


@dataclass(frozen=True)
class ReplyReceived:
    """A debater answered turn `turn`."""

    seat: Seat
    turn: int
    text: str
    raw: str
    meta: TurnMeta
    parsed: ParsedReply | None = None  # parsed once by the runner (off the loop when large)


@dataclass(frozen=True)
class DebaterFailed:
    """A debater's turn failed (timeout, rate limit, a missing session, ...)."""

    seat: Seat
    turn: int
    kind: FailureKind
    detail: str = ""
    retry_after: float | None = None


@dataclass(frozen=True)
class Judged:
    """The moderator decided what follows turn `turn`."""

    turn: int
    decision: Decision


@dataclass(frozen=True)
class UserAnswered:
    """An authorized person answered the moderator's question."""

    actor: Actor
    answer: str


@dataclass(frozen=True)
class StopRequested:
    """An authorized person pressed Stop."""

    actor: Actor


@dataclass(frozen=True)
class ConclusionReady:
    """The moderator wrote the Conclusion."""

    conclusion: Conclusion


Event = (
    ProposalApproved
    | ProposalDeclined
    | ProposalExpired
    | ReplyReceived
    | DebaterFailed
    | Judged
    | UserAnswered
    | StopRequested
    | ConclusionReady
)

# ---- effects --------------------------------------------------------------
# Effects are stored (as JSON) in the same transaction as the state they follow
# from, then run in order; `kind` tells them apart in storage.


@dataclass(frozen=True)
class PostCard:
    """Show the approval card."""

    kind: Literal["post_card"] = "post_card"


@dataclass(frozen=True)
class CloseCard:
    """Edit the card to its final state."""

    kind: Literal["close_card"] = "close_card"


@dataclass(frozen=True)
class OpenRoom:
    """Create the thread and its status message."""

    kind: Literal["open_room"] = "open_room"


@dataclass(frozen=True)
class WriteAgenda:
    """Queue the Agenda page."""

    kind: Literal["write_agenda"] = "write_agenda"


@dataclass(frozen=True)
class UpdateStatus:
    """Refresh the pinned status message."""

    kind: Literal["update_status"] = "update_status"


@dataclass(frozen=True)
class Notify:
    """Say one localized line in the room; a `page` param adds that page's `url`."""

    key: str
    params: tuple[tuple[str, str], ...] = ()
    kind: Literal["notify"] = "notify"


@dataclass(frozen=True)
class AskDebater:
    """Ask `seat` for turn `turn`; the prompt is composed from stored turns when it runs."""

    seat: Seat
    turn: int
    round: int
    relay_turn: int | None = None  # whose text is relayed verbatim
    note: str = ""  # the moderator's addition
    user_answer: str = ""  # the people's answer the relay builds on
    fresh_session: bool = False
    delay_s: float = 0.0  # wait before asking (a retry after a rate limit)
    kind: Literal["ask_debater"] = "ask_debater"


@dataclass(frozen=True)
class PostTurn:
    """Post turn `turn` in full."""

    turn: int
    kind: Literal["post_turn"] = "post_turn"


@dataclass(frozen=True)
class AppendRoundLog:
    """Queue turn `turn`'s section of the Round-Log."""

    turn: int
    kind: Literal["append_round_log"] = "append_round_log"


@dataclass(frozen=True)
class WriteWorkingDocument:
    """Queue the Working-Document as it stands after turn `turn`."""

    turn: int
    kind: Literal["write_working_document"] = "write_working_document"


@dataclass(frozen=True)
class Judge:
    """Ask the moderator to judge turn `turn`."""

    turn: int
    kind: Literal["judge"] = "judge"


@dataclass(frozen=True)
class AskUser:
    """Put the moderator's question to the people."""

    question: UserQuestion
    kind: Literal["ask_user"] = "ask_user"


@dataclass(frozen=True)
class Conclude:
    """Ask the moderator for the Conclusion."""

    kind: Literal["conclude"] = "conclude"


@dataclass(frozen=True)
class WriteConclusion:
    """Queue the Conclusion page."""

    conclusion: Conclusion
    kind: Literal["write_conclusion"] = "write_conclusion"


@dataclass(frozen=True)
class PostConclusion:
    """Post the final summary with links to the pages."""

    conclusion: Conclusion
    kind: Literal["post_conclusion"] = "post_conclusion"


Effect = Annotated[
    PostCard
    | CloseCard
    | OpenRoom
    | WriteAgenda
    | UpdateStatus
    | Notify
    | AskDebater
    | PostTurn
    | AppendRoundLog
    | WriteWorkingDocument
    | Judge
    | AskUser
    | Conclude
    | WriteConclusion
    | PostConclusion,
    Field(discriminator="kind"),
]

EFFECT_ADAPTER: TypeAdapter[Effect] = TypeAdapter(Effect)
