"""The moderator's structured output: pydantic response models and their domain values.

The models go to Gemini as `response_schema` (str enums, no dict fields, as the SDK
requires) and to the CLI as a JSON schema in the prompt. Anything a model returns is
validated here, then trimmed to the limits the rest of the bot relies on.
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from handlers.core.fences import sole_fence_body
from handlers.core.filled import Filled
from handlers.core.model import (
    Action,
    Conclusion,
    Decision,
    Detection,
    ModeratorSource,
    UserQuestion,
)
from handlers.core.moderation.bounds import NOTE_CHARS, bound_summary
from handlers.core.moderation.claims import ClaimStatus, ClaimUpdate
from handlers.core.probability import probability_of
from handlers.core.shorten import shorten

FIELD_MAX_CHARS = 2000  # one item of a Conclusion list, a detection's reason
MAX_SQUAD = 5  # seed 000: at most five agents a debate


class DecisionKind(enum.StrEnum):
    """The kinds of decision seed 000 suggests a squad for."""

    ARCHITECTURE = "architecture"
    VALUE = "value"
    COMPLIANCE = "compliance"
    PRODUCT = "product"
    OTHER = "other"


class DetectionReply(BaseModel):
    """Whether a chat holds an open decision worth a debate."""

    debate_worthy: bool
    topic: str = Field(description="short title of the decision")
    question: str = Field(description="the question as one concrete decision")
    reason: str = Field(description="why it deserves a debate")
    # Read leniently (handlers/core/probability.py): a missing or unreadable probability is
    # None, and detection then posts no card, rather than a repair request for one number.
    confidence: float | None = Field(
        default=None, description="the probability, from 0 to 1, that this is such a decision"
    )
    # Optional, so a reply without them still counts: the card then offers DEFAULT_FORMAT.
    suggested_format: str = Field(default="", description="the name of the fitting format")
    format_reason: str = Field(default="", description="why that format fits")
    # The boardroom's squad for the kind of decision (seed 000): at most five member ids.
    decision_kind: DecisionKind = Field(default=DecisionKind.OTHER, description="its kind")
    squad: list[str] = Field(
        default=[], max_length=MAX_SQUAD, description="2-5 member ids for a boardroom panel"
    )
    squad_reason: str = Field(default="", description="why these members, for this kind")

    @field_validator("confidence", mode="before")
    @classmethod
    def _probability(cls, value: object) -> float | None:
        return probability_of(value)

    @model_validator(mode="after")
    def _topic_when_worthy(self) -> DetectionReply:
        if self.debate_worthy and not (self.topic.strip() and self.question.strip()):
            raise ValueError("debate_worthy is true, so topic and question must not be empty")
        return self


class ClaimReply(BaseModel):
    """One claim board update: a new claim (no id), or a known claim's new status."""

    id: str = Field(description="C1, C2, ... for a claim on the board; empty for a new one")
    text: str = Field(description="a new claim's wording; empty for a known one")
    holder: str = Field(description="the id of the participant who holds it")
    status: ClaimStatus


class JudgeReply(BaseModel):
    """The moderator's decision after a reply, with the updated running summary."""

    action: Action
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
        if self.action is Action.ASK_USER and not (self.user_question or "").strip():
            raise ValueError("action is ask_user, so user_question must not be empty")
        if self.action is Action.REDIRECT and not self.note.strip():
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


M = TypeVar("M", bound=BaseModel)


def bare_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema without its titles and descriptions: the types, enums, bounds
    and required fields a reply must match, for a request whose system instruction already
    says what every field means (the schema is billed as input, each request)."""

    def strip(node: Any, in_properties: bool = False) -> Any:
        if isinstance(node, dict):
            return {
                key: strip(value, key == "properties" and not in_properties)
                for key, value in node.items()
                if in_properties or key not in ("title", "description")
            }
        if isinstance(node, list):
            return [strip(value) for value in node]
        return node

    stripped: dict[str, Any] = strip(model.model_json_schema())
    return stripped


def validated(text: str, parsed: object, model: type[M]) -> tuple[M | None, str]:
    """(the answer, "") or (None, why it is invalid in a few lines, to quote in a repair
    request): the SDK's parsed object, else the text (a single ```json fence is tolerated)."""
    if isinstance(parsed, model):
        return parsed, ""
    fenced = sole_fence_body(text)
    try:
        return model.model_validate_json(fenced if fenced is not None else text), ""
    except ValidationError as exc:
        lines = [
            f"- {'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
            for e in exc.errors()[:8]
        ]
        return None, "\n".join(lines)


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
        squad=tuple(_cut(seat, 80) for seat in reply.squad[:MAX_SQUAD] if seat.strip()),
        squad_kind=reply.decision_kind.value,
        squad_reason=_cut(reply.squad_reason, FIELD_MAX_CHARS),
    )


def to_decision(reply: JudgeReply) -> Decision:
    """The domain decision; the summary is capped so the next input stays bounded."""
    question = None
    if reply.action is Action.ASK_USER and reply.user_question:
        # Kept whole: a button shortens its label, and the question lists the options in full.
        options = tuple(option.strip() for option in reply.user_options if option.strip())
        question = UserQuestion(text=reply.user_question.strip(), options=options)
    return Decision(
        action=reply.action,
        next_seat=(reply.next_speaker or "").strip().lower() or None,
        note=_cut(reply.note, NOTE_CHARS),
        user_question=question,
        consensus=reply.consensus,
        summary=bound_summary(reply.summary),
        source=ModeratorSource.GEMINI,
        claims=tuple(
            ClaimUpdate(c.id.strip(), c.text.strip(), c.holder.strip(), c.status)
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
