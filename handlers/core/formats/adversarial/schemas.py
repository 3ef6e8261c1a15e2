"""The response model of the adversarial intake audit: the shape its prompt under
`prompts/adversarial/` asks for and audit.py reads, field names kept. The probes and the
Validator answer by line prefix: text tasks, without a model."""

from __future__ import annotations

import enum

from pydantic import BaseModel, Field


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
