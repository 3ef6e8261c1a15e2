"""The response models of the ledger's moderator tasks: the shapes their prompts under
`prompts/ledger/` ask for and text.py reads, field names kept."""

from __future__ import annotations

from pydantic import BaseModel, Field

from handlers.core.filled import Filled


class LedgerTaskReply(BaseModel):
    """The ledger debate's ledger, each item in the participants' precise wording."""

    agreed: list[str] = Field(description="every claim all participants agreed")
    amendments: list[str] = Field(description="every claim refined or conceded")
    open: list[str] = Field(description="every open question")


class FrontTaskReply(BaseModel):
    """The ledger debate's front page."""

    markdown: Filled = Field(description="the front page in Markdown")
    svg: str = Field(description="an SVG diagram, or empty")
