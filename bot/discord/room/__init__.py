"""The debate's room in Discord: `show` matches each effect and hands it to the part of the
room it concerns (the card, the thread's pins, a turn, the people, the poll, the end), each
posting once under a stable key (bot/discord/room/records.py)."""

from __future__ import annotations

import discord

from bot.discord.room.archive import Archive
from bot.discord.room.card import Card
from bot.discord.room.end import post_conclusion, post_summary
from bot.discord.room.people import ask_budget, ask_user, close_question, notify
from bot.discord.room.pins import Pins, StatusEditor
from bot.discord.room.poll import Poll
from bot.discord.room.records import RoomRecords
from bot.discord.room.turn import DEFAULT_PACE, LIVE_WINDOW_S, Live, Pace, Working, post_turn
from handlers.core.effects import (
    ArchiveRoom,
    AskBudget,
    AskUser,
    CloseCard,
    CloseQuestion,
    Notify,
    OpenPoll,
    OpenRoom,
    PostCard,
    PostConclusion,
    PostMinorityReport,
    PostSummary,
    PostTurn,
    RoomEffect,
    UpdateClaims,
    UpdateStatus,
)
from handlers.core.i18n import Strings
from handlers.core.model import Debate
from handlers.leasing import LeaseGuard
from handlers.ports import NOTHING, Clock, Loaded
from tools.store.proposals import Proposals
from tools.store.room_messages import Posted, RoomMessages

# Status refreshes within this window become one edit: a turn's two or three refreshes
# usually come within a second, and Discord allows about five edits per five seconds.
STATUS_WINDOW_S = 1.5


class DiscordRoom:
    """Implements the engine's Room port on a discord.py client."""

    def __init__(
        self,
        client: discord.Client,
        messages: RoomMessages,
        proposals: Proposals,
        strings: Strings,
        clock: Clock,
        *,
        status_window_s: float = STATUS_WINDOW_S,
        pace: Pace = DEFAULT_PACE,
        live_window_s: float = LIVE_WINDOW_S,
        guard: LeaseGuard | None = None,
    ) -> None:
        self._records = RoomRecords(client, messages, guard)
        self._archive = Archive(self._records, strings)
        self._strings = strings
        self._card = Card(self._records, proposals, strings)
        self._pins = Pins(self._records, strings, clock, status_window_s)
        self._poll = Poll(self._records, strings, clock)
        self._live = Live(self._records, strings, self._pins, pace, live_window_s)

    @property
    def status(self) -> StatusEditor:
        """The pinned status's coalescing editor."""
        return self._pins.status

    async def aclose(self) -> None:
        """Send the status edits still scheduled (before the client closes)."""
        await self._pins.status.flush()

    def forget(self, debate_id: int) -> None:
        """Drop what is kept in memory for an ended debate (the records stay in SQLite)."""
        self._pins.forget(debate_id)

    async def recorded(self, debate_id: int, key: str) -> Posted | None:
        """(channel id, message id, url) of a message posted under `key`."""
        return await self._records.recorded(debate_id, key)

    async def show(  # noqa: PLR0912  # one case per kind of effect: a table, not logic
        self, debate: Debate, effect: RoomEffect, loaded: Loaded = NOTHING
    ) -> str:
        """Show what `effect` says; a turn's post returns a link to its first message."""
        records, strings = self._records, self._strings.of(debate)  # in the debate's language
        match effect:
            case PostCard():
                await self._card.post(debate)
            case CloseCard():
                await self._card.close(debate)
            case OpenRoom():
                await self._pins.open(debate)
            case UpdateStatus():
                await self._pins.status.update(debate)  # bursts coalesce into one edit
            case UpdateClaims():
                await self._pins.claims(debate)
            case PostTurn():
                return await post_turn(records, strings, debate, loaded.stored_turn())
            case Notify(key=key, params=params):
                await notify(records, strings, debate, key, dict(params))
            case AskUser(question=question):
                await ask_user(records, strings, debate, question)
            case CloseQuestion(number=number):
                await close_question(records, debate, number)
            case AskBudget():
                await ask_budget(records, strings, debate)
            case PostConclusion(conclusion=conclusion):
                await post_conclusion(records, strings, debate, conclusion, loaded)
            case PostSummary():
                await post_summary(records, strings, debate, loaded)
            case ArchiveRoom():
                await self._archive.archive(debate)
            case PostMinorityReport():
                await self._poll.report(debate)
            case OpenPoll():
                await self._poll.open(debate)
        return ""

    async def votes(self, debate: Debate) -> tuple[int, ...] | None:
        """End the poll if it still runs and read its votes per answer."""
        return await self._poll.votes(debate)

    def working(self, debate: Debate, seat: str) -> Working:
        """Typing, a 'still working' line now and then, and the reply as it is written."""
        return Working(self._live, debate, seat)
