"""The engine's storage ports, one per concern: the debates (each step saved before it acts),
their effect queue, their timers, the turn log and the channels' cards read back; and the
Precedents searched before a card is posted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from handlers.core.effects import Effect
from handlers.core.model import Debate, Precedent, Turn
from handlers.core.server_config import ServerConfig


class StoreUnavailable(Exception):
    """The store's database cannot be reached now (down, restarting, the network): a write
    cut off this way may or may not have landed, so what was stored is read again once it is
    back. Processes sharing a database wait it out through their leases."""


class Debates(Protocol):
    """Where debates live; each step is stored, with its effects, before it acts."""

    async def create(
        self, draft: Debate, ttl: timedelta, effects: Sequence[Effect]
    ) -> Debate | None:
        """Store a proposed debate (the store gives its id and wiki key) and its effects; None
        if a card waits in its channel already (stored meanwhile by another process)."""

    async def load(self, debate_id: int) -> Debate:
        """The debate's current state."""

    async def save_step(
        self,
        debate: Debate,
        effects: Sequence[Effect],
        turn: Turn | None,
        now: datetime,
        completed_effect: int | None = None,
        decided_by: int | None = None,
        command: int | None = None,
    ) -> None:
        """Store a transition's outcome atomically, with the completion of `completed_effect`
        (whose event it is) and the done mark of the inbox `command` whose event made it."""


class EffectQueue(Protocol):
    """The effects each debate still has to run, in order."""

    async def pending_effects(self, debate_id: int, limit: int = 1) -> list[tuple[int, Effect]]:
        """The oldest effects not yet done."""

    async def complete_effects(
        self, debate_id: int, effect_ids: Sequence[int], now: datetime
    ) -> None:
        """Mark several of the debate's effects done at once (effect ids are per debate)."""

    async def debates_with_work(self) -> list[int]:
        """Debates with effects still to run."""


class Timers(Protocol):
    """Each debate's timer (a poll's end, a limit's reset, an archive time), kept over restarts."""

    async def schedule_poll(self, debate_id: int, ends_at: datetime) -> None:
        """Store a poll's end time (a repeat keeps the first one)."""

    async def schedule_resume(self, debate_id: int, at: datetime) -> None:
        """Store when a limit pause ends (it replaces the debate's timer)."""

    async def due_timers(self, now: datetime) -> list[int]:
        """Debates whose timer (a poll's end, a limit's reset) is due and not yet done."""

    async def timer_done(self, debate_id: int, now: datetime) -> None:
        """The debate's timer that was due by `now` is done (a later one set meanwhile stays)."""

    async def cancel_timer(self, debate_id: int, now: datetime) -> None:
        """Whatever the debate's timer waits for is of no more use: it never fires."""

    async def next_due(self, after: datetime) -> datetime | None:
        """When the earliest timer not yet done falls due after `after` (None: there is none)."""


class TurnLog(Protocol):
    """The stored turns, read back: one, the latest, where one was posted, what they cost."""

    async def turn(self, debate_id: int, number: int) -> Turn:
        """One stored turn."""

    async def last_turns(self, debate_id: int, count: int) -> tuple[Turn, ...]:
        """The latest turns, oldest first."""

    async def message_url(self, debate_id: int, number: int) -> str:
        """Where a turn was posted."""

    async def record_link(self, debate_id: int, number: int, url: str) -> None:
        """Store where a turn was posted (the link the room returned when it showed it)."""

    async def turn_costs(self) -> dict[str, tuple[float, int]]:
        """Per seat, the mean cost of its recorded turns that cost anything, and their count."""


class Cards(Protocol):
    """The proposals of each channel: the topics open there, the cards waiting, the expired."""

    async def open_topics(self, channel_id: int) -> list[str]:
        """Topics still open in a channel."""

    async def waiting_cards(self, channel_id: int) -> int:
        """Approval cards waiting for a click in a channel."""

    async def due_proposals(self, now: datetime) -> list[int]:
        """Proposals past their expiry."""

    async def next_expiry(self, after: datetime) -> datetime | None:
        """When the first card still waiting expires after `after` (None: no card waits)."""


@dataclass(frozen=True)
class StorePorts:
    """The engine's storage, one narrow port per concern (one store may implement them all)."""

    debates: Debates
    effects: EffectQueue
    timers: Timers
    turns: TurnLog
    cards: Cards


class Precedents(Protocol):
    """Past Conclusion pages, searched before a card is posted."""

    async def search(self, text: str, limit: int) -> tuple[Precedent, ...]:
        """Up to `limit` pages related to `text`, best first."""


class ServerConfigs(Protocol):
    """What `/debate config` set for a server and its channels."""

    async def lookup(self, guild_id: int, channel_id: int) -> ServerConfig:
        """What applies in a channel of a server."""
