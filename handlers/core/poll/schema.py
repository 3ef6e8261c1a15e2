"""The response model of the moderator's minority report at a stalemate (the engine's task,
not a format's): the shape prompts/minority_report.md asks for and minority.py reads."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SideReport(BaseModel):
    """One side of the minority report."""

    participant: str = Field(description="the participant's id, as listed")
    position: str = Field(description="its position in one short sentence")
    case: str = Field(description="its strongest argument, at most three sentences")
    quotes: list[str] = Field(description="one or two sentences copied word for word")


class MinorityTaskReply(BaseModel):
    """The minority report at a stalemate."""

    sides: list[SideReport] = Field(min_length=1)  # every participant: none is invalid
