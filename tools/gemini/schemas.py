"""The moderator's structured output: pydantic response models and their domain values.

The models go to Gemini as `response_schema` (str enums, no dict fields, as the SDK
requires) and to the CLI as a JSON schema in the prompt. Anything a model returns is
validated here, then trimmed to the limits the rest of the bot relies on.
"""

from __future__ import annotations

import enum
from typing import Annotated, TypeVar

from pydantic import AfterValidator, BaseModel, Field, ValidationError, model_validator

from handlers.core.claims import ClaimStatus, ClaimUpdate
from handlers.core.fences import sole_fence_body
from handlers.core.model import (
    Action,
    Conclusion,
    Decision,
    Detection,
    ModeratorSource,
    UserQuestion,
)
from handlers.core.shorten import shorten
from handlers.rules_moderator import bound_summary

NOTE_MAX_CHARS = 1500  # appended to a relayed reply: a direction, not an essay
FIELD_MAX_CHARS = 2000  # one item of a Conclusion list, a detection's reason


def _filled(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text


Filled = Annotated[str, AfterValidator(_filled)]  # a text its reader needs: blank is invalid


class ActionChoice(enum.StrEnum):
    """What follows the latest reply."""

    CONTINUE = "continue"
    ASK_USER = "ask_user"
    REDIRECT = "redirect"
    CONCLUDE = "conclude"


class DetectionReply(BaseModel):
    """Whether a chat holds an open decision worth a debate."""

    debate_worthy: bool
    topic: str = Field(description="short title of the decision")
    question: str = Field(description="the question as one concrete decision")
    reason: str = Field(description="why it deserves a debate")
    confidence: float = Field(ge=0, le=1)
    # Optional, so a reply without them still counts: the card then offers DEFAULT_FORMAT.
    suggested_format: str = Field(default="", description="the name of the fitting format")
    format_reason: str = Field(default="", description="why that format fits")

    @model_validator(mode="after")
    def _topic_when_worthy(self) -> DetectionReply:
        if self.debate_worthy and not (self.topic.strip() and self.question.strip()):
            raise ValueError("debate_worthy is true, so topic and question must not be empty")
        return self


class ClaimStatusChoice(enum.StrEnum):
    """Where a claim stands."""

    OPEN = "open"
    CONTESTED = "contested"
    AGREED = "agreed"
    WITHDRAWN = "withdrawn"


class ClaimReply(BaseModel):
    """One claim board update: a new claim (no id), or a known claim's new status."""

    id: str = Field(description="C1, C2, ... for a claim on the board; empty for a new one")
    text: str = Field(description="a new claim's wording; empty for a known one")
    holder: str = Field(description="the id of the participant who holds it")
    status: ClaimStatusChoice


class JudgeReply(BaseModel):
    """The moderator's decision after a reply, with the updated running summary."""

    action: ActionChoice
    next_speaker: str | None = Field(
        description="the id of the participant who speaks next; null: keep order"
    )
    note: str = Field(description="added to the relayed reply for the next debater")
    user_question: str | None = Field(description="the question for the people, or null")
    user_options: list[str] = Field(description="short answer options for the people")
    consensus: float = Field(ge=0, le=1)
    summary: Filled = Field(description="the updated running summary")
    # Optional, so a reply without it still counts: the board then stays as it was.
    claims: list[ClaimReply] = Field(default_factory=list, description="claim board updates")

    @model_validator(mode="after")
    def _consistent(self) -> JudgeReply:
        if self.action is ActionChoice.ASK_USER and not (self.user_question or "").strip():
            raise ValueError("action is ask_user, so user_question must not be empty")
        if self.action is ActionChoice.REDIRECT and not self.note.strip():
            raise ValueError("action is redirect, so note must give the direction")
        return self


class PositionReply(BaseModel):
    """One side's remaining position."""

    speaker: str = Field(description="the participant's id")
    position: str


class ConclusionReply(BaseModel):
    """The Conclusion page's content."""

    decision: Filled
    agreed_points: list[str]
    open_issues: list[str]
    positions: list[PositionReply]
    next_steps: list[str]


Reply = DetectionReply | JudgeReply | ConclusionReply
M = TypeVar("M", bound=BaseModel)


def validate_text(text: str, model: type[M]) -> M:
    """Validate a model's text reply (a single ```json fence around it is tolerated)."""
    fenced = sole_fence_body(text)
    return model.model_validate_json(fenced if fenced is not None else text)


def describe(error: ValidationError | ValueError) -> str:
    """The validation error in a few lines, to quote in a repair request."""
    if isinstance(error, ValidationError):
        lines = [
            f"- {'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
            for e in error.errors()[:8]
        ]
        return "\n".join(lines)
    return f"- {error}"


def to_detection(reply: DetectionReply) -> Detection:
    """The domain verdict, trimmed."""
    return Detection(
        debate_worthy=reply.debate_worthy,
        topic=_cut(reply.topic, 200),
        question=_cut(reply.question, 500),
        reason=_cut(reply.reason, FIELD_MAX_CHARS),
        confidence=reply.confidence,
        source=ModeratorSource.GEMINI,
        suggested_format=_cut(reply.suggested_format, 60),
        format_reason=_cut(reply.format_reason, FIELD_MAX_CHARS),
    )


def to_decision(reply: JudgeReply) -> Decision:
    """The domain decision; the summary is capped so the next input stays bounded."""
    question = None
    if reply.action is ActionChoice.ASK_USER and reply.user_question:
        # Kept whole: a button shortens its label, and the question lists the options in full.
        options = tuple(option.strip() for option in reply.user_options if option.strip())
        question = UserQuestion(text=reply.user_question.strip(), options=options)
    return Decision(
        action=Action(reply.action.value),
        next_seat=(reply.next_speaker or "").strip().lower() or None,
        note=_cut(reply.note, NOTE_MAX_CHARS),
        user_question=question,
        consensus=reply.consensus,
        summary=bound_summary(reply.summary),
        source=ModeratorSource.GEMINI,
        claims=tuple(
            ClaimUpdate(c.id.strip(), c.text.strip(), c.holder.strip(), ClaimStatus(c.status.value))
            for c in reply.claims
        ),
    )


def to_conclusion(reply: ConclusionReply) -> Conclusion:
    """The domain Conclusion, one position per seat (the last one given wins)."""
    # Never shortened: the wiki's Conclusion page holds it whole, Discord says where it is.
    positions = {p.speaker.strip().lower(): p.position.strip() for p in reply.positions}
    return Conclusion(
        decision=reply.decision.strip(),
        agreed=_items(reply.agreed_points),
        open_issues=_items(reply.open_issues),
        positions=tuple(positions.items()),
        next_steps=_items(reply.next_steps),
        source=ModeratorSource.GEMINI,
    )


def _items(values: list[str]) -> tuple[str, ...]:
    return tuple(value.strip() for value in values if value.strip())


def _cut(text: str, limit: int) -> str:
    """A title, a card line or a note: its head and how much is missing when too long."""
    return shorten(text.strip(), limit)
