"""The engine's ports: what it needs from the outside, named by role (the Store and the
Precedents are in handlers.store_ports)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from pydantic import BaseModel

from handlers.core.effects import RoomEffect, WikiEffect
from handlers.core.model import (
    Backend,
    ChatLine,
    Conclusion,
    Debate,
    Decision,
    Detection,
    FailureKind,
    ModeratorView,
    ParsedReply,
    Turn,
    TurnMeta,
)


@dataclass(frozen=True)
class TurnRequest:
    """What a debater is asked to answer."""

    debate_id: int
    turn: int  # the number this reply will have
    round: int
    prompt: str  # the full text to send, relayed reply included verbatim
    fresh_session: bool = False  # start a new session (the old one is gone)
    participant: str = ""  # who speaks: one backend may seat several participants
    name: str = ""  # the participant's display name
    persona: str = ""  # the participant's role, if any
    model: str = ""  # the participant's own model, if set (else the backend's)
    system_prompt: str = ""  # the debaters' rules in the debate's language ('': the debater's)
    # The reply's shape as a JSON Schema (JSON text; '': the format's own parser only): a
    # backend that validates structured output itself (the claude CLI) asks for it.
    reply_schema: str = ""
    # The most this turn may spend, in dollars: what is left of the people's budget (None:
    # no dollar budget). A backend that can cap a call (the claude CLI) stops there.
    budget_usd: float | None = None
    # Progress: called with the reply's whole text so far as it is written (a streaming
    # backend calls it often; it must return at once). Never the record: `speak` returns that.
    on_text: Callable[[str], None] | None = field(default=None, compare=False, repr=False)
    # The same ask worded for a person typing the seat, built only when one asks for it.
    for_person: Callable[[], str] | None = field(default=None, compare=False, repr=False)

    def show_text(self, text_so_far: str) -> None:
        """Report the reply written so far, if anyone listens."""
        if self.on_text is not None:
            self.on_text(text_so_far)

    def person_prompt(self) -> str:
        """What a person typing this seat reads: no machine contract, the others' words."""
        return self.for_person() if self.for_person is not None else self.prompt

    def session_key(self, default: str) -> str:
        """Whose session this is: sessions are kept per (debate, participant)."""
        return self.participant or default


@dataclass(frozen=True)
class DebaterOutput:
    """A debater's reply as its adapter got it."""

    text: str  # what the debater wrote, exactly
    raw: str  # the adapter's raw output, hashed into the turn's SHA-256
    meta: TurnMeta
    parsed: ParsedReply | None = None  # `text` parsed, when the adapter had to parse it anyway


class DebaterError(Exception):
    """A debater's turn failed; `kind` decides what the engine does next."""

    def __init__(
        self,
        kind: FailureKind,
        detail: str = "",
        retry_after: float | None = None,
        cost_usd: float = 0.0,
    ) -> None:
        super().__init__(f"{kind.value}: {detail}" if detail else kind.value)
        self.kind = kind
        self.detail = detail
        self.retry_after = retry_after
        self.cost_usd = cost_usd  # what the failed call still cost (a budget's stop: the cap)


class Debater(Protocol):
    """A backend that speaks for participants: the AG relay, the Claude CLI, the Gemini CLI."""

    backend: Backend

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Send the prompt and return the reply; raise DebaterError on failure."""

    async def forget(self, debate_id: int) -> None:
        """Drop whatever session state the debater keeps for a debate."""


@runtime_checkable
class PersonTyped(Protocol):
    """A debater some of whose seats a person types (the console's): those cost nothing."""

    def typed_by_person(self, seat: str) -> bool:
        """True when a person types `seat`'s replies."""


@dataclass(frozen=True)
class TaskRequest:
    """One moderator task of a format: its rendered prompt, whether the answer is JSON, and
    the model a JSON answer must fit (the task's own, so an adapter imports no format)."""

    debate_id: int
    task: str
    prompt: str
    json: bool
    language: str = ""  # the debate's ('': the moderator's own)
    schema: type[BaseModel] | None = None  # None: any JSON object (or text)


class ModeratorUnavailable(Exception):
    """The moderator cannot perform a task now: the engine uses the format's fallback."""


class Moderator(Protocol):
    """The moderator: detection, judgement after each reply, the Conclusion."""

    async def detect(self, window: tuple[ChatLine, ...], language: str = "") -> Detection:
        """Judge whether the chat holds an open, debate-worthy decision; the card's words in
        `language` (its channel's; '': the moderator's own)."""

    async def judge(self, view: ModeratorView) -> Decision:
        """Decide what follows the latest reply and update the running summary."""

    async def conclude(self, view: ModeratorView) -> Conclusion:
        """Write the Conclusion from what the debate reached."""

    async def perform(self, request: TaskRequest) -> str:
        """Perform a format's task; raises ModeratorUnavailable when it cannot."""


class DecisionScorer(Protocol):
    """A calibrated yes/no judge of a chat window (the Gemini Decisions API)."""

    async def probability(self, window: tuple[ChatLine, ...]) -> float | None:
        """P(the window holds an open decision worth a debate), in [0, 1]; None when no
        usable answer came (detection then uses the moderator's own score)."""


@dataclass(frozen=True)
class Loaded:
    """What an effect needs beside the debate, read by the runner before the port runs it."""

    turn: Turn | None = None  # PostTurn, AppendRoundLog: the stored turn
    message_url: str = ""  # AppendRoundLog: where the turn was posted
    title: str = ""  # WritePage: the rendered page's title
    markdown: str = ""  # WritePage: the rendered page; PostSummary: the format's summary
    # PostConclusion, PostSummary: where each page the debate wrote is read
    links: Mapping[str, str] = field(default_factory=dict)
    # PostConclusion, PostSummary, WriteConclusion, a closing WritePage: every stored turn (the
    # export, the chain head)
    turns: tuple[Turn, ...] = ()

    def stored_turn(self) -> Turn:
        """The stored turn an effect about a turn was given."""
        if self.turn is None:
            raise LookupError("no stored turn was loaded for this effect")
        return self.turn


NOTHING = Loaded()


class Wiki(Protocol):
    """The debate's pages: writes are queued and land in order; a repeated write is queued once."""

    async def write(self, debate: Debate, effect: WikiEffect, loaded: Loaded = NOTHING) -> None:
        """Queue what `effect` writes (a page, a section of the Round-Log)."""

    def page_url(self, debate: Debate, page: str) -> str:
        """Where a person reads the page (a link for the thread)."""


class Room(Protocol):
    """Where people see the debate (a thread, a terminal); a repeated call posts nothing twice."""

    async def show(self, debate: Debate, effect: RoomEffect, loaded: Loaded = NOTHING) -> str:
        """Show what `effect` says; return a link to its first message (a turn's), else ""."""

    async def votes(self, debate: Debate) -> tuple[int, ...] | None:
        """End the poll if it still runs and read its votes per answer (None: no poll message)."""

    def working(self, debate: Debate, seat: str) -> WorkingIndicator:
        """A context manager showing that participant `seat` is working (typing, ...)."""


class WorkingIndicator(AbstractAsyncContextManager[None], Protocol):
    """Shown while a debater works on its turn; `show_text` shows its reply as it grows."""

    def show_text(self, text_so_far: str) -> None:
        """Show the reply written so far (returns at once; the display catches up)."""


class Clock(Protocol):
    """Time, injectable so tests neither wait nor depend on the wall clock."""

    def now(self) -> datetime:
        """The current UTC time."""

    async def sleep(self, seconds: float) -> None:
        """Wait (or not, in tests)."""


class GatewayClaims(Protocol):
    """Which gateway process acts on a Discord event: each one connected receives it."""

    async def first(self, event_id: int) -> bool:
        """True for the one process that claims the event (a message, a click) first."""


class OneGateway:
    """The claims of a process that is the only gateway (the SQLite file is locked to it)."""

    async def first(self, event_id: int) -> bool:
        """Always this process."""
        return True
