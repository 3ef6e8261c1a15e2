"""The response models of the boardroom's moderator tasks: each the shape its prompt under
`prompts/boardroom/` asks for and its reader (pages.py, report.py) reads, field names kept.
They reach the moderator on the task request (Gemini's `response_schema`, the CLI's JSON
schema in the prompt), so the judge's rules hold: str enums, lists of small models, no dicts."""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from handlers.core.filled import Filled


class DecisionTaskReply(BaseModel):
    """The boardroom's question as one concrete decision."""

    decision: Filled = Field(description="the decision the panel votes on, one sentence")


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
