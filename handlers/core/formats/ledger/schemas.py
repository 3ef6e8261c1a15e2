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


class LedgerConfirmation(BaseModel):
    """A debater's answer to the written ledger (the reply contract of the one confirmation
    round, two-party mode): text.py's `confirmation` reads it tolerantly."""

    opinion: str = Field(description="what the debater says about the ledger, in Markdown")
    confirmed: list[str] = Field(description="the ids of the items confirmed as written")
    amended: dict[str, str] = Field(
        default_factory=dict, description="for each id not held as worded, its own wording"
    )
