"""The response models of the formats' moderator tasks, looked up by task name.

Each model is the shape its prompt under `prompts/` asks for and its format's reader reads
(field names kept). They go to Gemini as `response_schema` and to the CLI as a JSON schema in
the prompt, so the same rules hold as for the judge's: str enums, lists of small models, no
dict fields. A text task (the adversarial probes and Validator answer by line prefix) has none.
"""

from __future__ import annotations

import enum
import json

from pydantic import BaseModel, Field, model_validator

from handlers.core.formats.boardroom import ADVISOR, DECISION, SYNTHESIS
from handlers.core.formats.ledger import FRONT, LEDGER, REPAIR
from handlers.core.poll.state import MINORITY_TASK
from tools.gemini.schemas import Filled, validated

INTAKE = "intake"  # the adversarial format's audit (its task name there)


class DecisionTaskReply(BaseModel):
    """The boardroom's question as one concrete decision."""

    decision: Filled = Field(description="the decision the panel votes on, one sentence")
    panel: list[str] = Field(default=[], description="a squad over five: the five members' ids")
    reason: str = Field(default="", description="a squad over five: why these five")


class VoteChange(BaseModel):
    """Why one member's vote changed between the rounds."""

    member: str = Field(description="the member's id")
    why: str = Field(description="why its vote changed, one sentence from its own words")


class SynthesisTaskReply(BaseModel):
    """The boardroom's synthesis (the result itself is computed by code)."""

    tracker: list[VoteChange] = Field(description="one entry per member whose vote changed")
    tensions: list[str] = Field(description="the 2-3 main tensions, naming who is on which side")
    insight: str = Field(description="the sharpest insight, naming whose it is")
    conditions: list[str] = Field(description="the conditions for consensus")
    irreconcilable: bool = Field(description="true if conditions cannot reconcile the positions")
    recommendation: str = Field(description="the recommended action; empty if irreconcilable")
    guardrails: list[str] = Field(description="guardrails for that action")
    question: str = Field(description="if irreconcilable, the question the people decide")
    options: list[str] = Field(description="if irreconcilable, 2-4 short answer options")

    @model_validator(mode="after")
    def _advice(self) -> SynthesisTaskReply:
        if self.irreconcilable and not self.question.strip():
            raise ValueError("irreconcilable is true, so question must not be empty")
        if not self.irreconcilable and not self.recommendation.strip():
            raise ValueError("irreconcilable is false, so recommendation must not be empty")
        return self


class AdvisorTaskReply(SynthesisTaskReply):
    """The boardroom's synthesis as the advisor revised it, and what the review changed."""

    review: str = Field(description="what the review changed, or that it confirmed the draft")


class EvidenceStance(enum.StrEnum):
    """Where an evidence item points."""

    SUPPORTS = "supports"
    AGAINST = "against"
    MIXED = "mixed"
    CONTEXT = "context"


class EvidenceItem(BaseModel):
    """One concrete item of the evidence inventory."""

    id: str = Field(default="", description="the id the people gave it (E2, ...), else empty")
    item: str = Field(description="the concrete fact, with its value or path")
    stance: EvidenceStance


class IntakeTaskReply(BaseModel):
    """The adversarial intake audit (the tier is routed by code from these fields)."""

    proposition: str = Field(description="the statement to debate, one sentence")
    decision_focus: str = Field(description="the exact choice to be made, or empty")
    evidence: list[EvidenceItem] = Field(description="the concrete items, in order; [] if none")
    known_gaps: list[str] | None = Field(
        description='missing evidence; ["none"] if the people said none; null if unsaid'
    )
    optional_state: list[str] = Field(description="state that materially affects the judgment")
    constraints: str = Field(description="the people's rules for the decision, verbatim, or empty")
    binary_choice: bool
    high_stakes: bool
    competing_options: int = Field(ge=0, description="competing options besides the proposition")
    state_uncertain: bool
    gap_conflict: bool
    request: str = Field(description="without evidence, the question for the people; else empty")


class SideReport(BaseModel):
    """One side of the minority report."""

    participant: str = Field(description="the participant's id, as listed")
    position: str = Field(description="its position in one short sentence")
    case: str = Field(description="its strongest argument, at most three sentences")
    quotes: list[str] = Field(description="one or two sentences copied word for word")


class MinorityTaskReply(BaseModel):
    """The minority report at a stalemate."""

    sides: list[SideReport] = Field(min_length=1)  # every participant: none is invalid


class LedgerTaskReply(BaseModel):
    """The ledger debate's ledger, each item in the participants' precise wording."""

    agreed: list[str] = Field(description="every claim all participants agreed")
    amendments: list[str] = Field(description="every claim refined or conceded")
    open: list[str] = Field(description="every open question")


class FrontTaskReply(BaseModel):
    """The ledger debate's front page."""

    markdown: Filled = Field(description="the front page in Markdown")
    svg: str = Field(description="an SVG diagram, or empty")


TASK_SCHEMAS: dict[str, type[BaseModel]] = {
    DECISION: DecisionTaskReply,
    SYNTHESIS: SynthesisTaskReply,
    ADVISOR: AdvisorTaskReply,
    INTAKE: IntakeTaskReply,
    MINORITY_TASK: MinorityTaskReply,
    LEDGER: LedgerTaskReply,
    FRONT: FrontTaskReply,
    REPAIR: FrontTaskReply,
}


def task_answer(
    text: str, parsed: object, schema: type[BaseModel] | None, json_only: bool
) -> tuple[str, str]:
    """(the output, why it cannot be used): a schema's answer validated and written back as
    exactly its fields; a JSON task without one any object; a text task any text."""
    text = _unwrapped(text)
    if schema is None:
        return text, _shape_error(text, json_only)
    answer, error = validated(text, parsed, schema)
    return (answer.model_dump_json() if answer is not None else text), error


def _shape_error(text: str, json_only: bool) -> str:
    """Why a task's answer cannot be used ('' if it can)."""
    if not text.strip():
        return "the answer was empty"
    if not json_only:
        return ""
    body = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    try:
        value = json.loads(body)
    except (RecursionError, ValueError) as exc:
        return f"not valid JSON: {exc!r}"
    return "" if isinstance(value, dict) else "not one JSON object"


def _unwrapped(text: str) -> str:
    """The answer inside a `{"text": "..."}` envelope, which a model may put around it."""
    try:
        value = json.loads(text)
    except (RecursionError, ValueError):
        return text
    if isinstance(value, dict) and list(value) == ["text"] and isinstance(value["text"], str):
        return value["text"]
    return text
