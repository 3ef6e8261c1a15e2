"""What the engine does about a debate (effects, imperative): each is stored (as JSON) in the
same transaction as the state it follows from, then run in order; `kind` tells them apart in
storage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, TypeAlias

from pydantic import Field, TypeAdapter

from handlers.core.model import Conclusion, UserQuestion


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
    """Say one localized line in the room; a `page` param adds that page's `url`; `block` and
    `reasons` params are a format's words whose `⟦area.key⟧` the room fills
    (handlers.core.formats.keys)."""

    key: str
    params: tuple[tuple[str, str], ...] = ()
    kind: Literal["notify"] = "notify"


@dataclass(frozen=True)
class AskDebater:
    """Ask participant `seat` for turn `turn`; its brief is composed from stored turns then."""

    seat: str  # the participant's id
    turn: int
    round: int
    shows: tuple[int, ...] = ()  # the stored turns the brief carries verbatim (the format's)
    step: str = ""  # the format's step
    note: str = ""  # the moderator's addition
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
class LogNote:
    """Queue a section of the Round-Log that is not a turn: the moderator's note or redirect,
    the people's answer or message; `key` keeps a repeat from writing it twice."""

    key: str
    what: str  # "note", "redirect", "answer", "said"
    who: str  # the person's name; empty for the moderator
    text: str  # verbatim
    kind: Literal["log_note"] = "log_note"


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
class CloseQuestion:
    """The people's question number `number` is answered: its buttons go."""

    number: int
    kind: Literal["close_question"] = "close_question"


@dataclass(frozen=True)
class AskBudget:
    """Tell the people the debate reached its budget; offer Extend / Conclude."""

    kind: Literal["ask_budget"] = "ask_budget"


@dataclass(frozen=True)
class UpdateClaims:
    """Show the claim board as it stands (the thread's second pinned message)."""

    kind: Literal["update_claims"] = "update_claims"


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


@dataclass(frozen=True)
class RunTask:
    """Ask the moderator to perform one of the format's tasks."""

    task: str
    kind: Literal["run_task"] = "run_task"


@dataclass(frozen=True)
class WritePage:
    """Queue one of the format's own wiki pages, rendered from the stored debate."""

    page: str
    kind: Literal["write_page"] = "write_page"


@dataclass(frozen=True)
class PostSummary:
    """Post the format's closing summary in the room, with links to its pages."""

    kind: Literal["post_summary"] = "post_summary"


@dataclass(frozen=True)
class PostMinorityReport:
    """Post the minority report in the room (before the poll)."""

    kind: Literal["post_minority_report"] = "post_minority_report"


@dataclass(frozen=True)
class OpenPoll:
    """Open the people's poll in the room and store its end time."""

    kind: Literal["open_poll"] = "open_poll"


@dataclass(frozen=True)
class ClosePoll:
    """End the poll (if it still runs) and read its votes."""

    kind: Literal["close_poll"] = "close_poll"


@dataclass(frozen=True)
class ScheduleResume:
    """Store the time a limit pause ends (the debate's timer: it outlives restarts)."""

    at: str  # ISO 8601, UTC
    kind: Literal["schedule_resume"] = "schedule_resume"


@dataclass(frozen=True)
class CancelTimer:
    """The debate ended: whatever its timer waited for (a reset, a poll) is of no more use."""

    kind: Literal["cancel_timer"] = "cancel_timer"


@dataclass(frozen=True)
class ArchiveRoom:
    """The concluded debate's grace period is over: archive its room, linking its end."""

    kind: Literal["archive_room"] = "archive_room"


RoomEffect: TypeAlias = (
    PostCard
    | CloseCard
    | OpenRoom
    | UpdateStatus
    | Notify
    | PostTurn
    | AskUser
    | CloseQuestion
    | AskBudget
    | UpdateClaims
    | PostConclusion
    | PostSummary
    | PostMinorityReport
    | OpenPoll
    | ArchiveRoom
)
"""What a room shows people (the poll's votes are read through `Room.votes`)."""

WikiEffect: TypeAlias = (
    WriteAgenda | AppendRoundLog | LogNote | WriteWorkingDocument | WriteConclusion | WritePage
)
"""What the wiki queues."""

Effect = Annotated[
    RoomEffect
    | WikiEffect
    | AskDebater
    | Judge
    | RunTask
    | Conclude
    | ClosePoll
    | ScheduleResume
    | CancelTimer,
    Field(discriminator="kind"),
]
"""Every effect: what a room shows, what the wiki queues, and what the engine runs itself."""

EFFECT_ADAPTER: TypeAdapter[Effect] = TypeAdapter(Effect)
