"""The debate's thread and its pinned messages: the status line (who speaks, the round, the
cost, who is writing; a layout with Stop beside it) and the claim board, each edited in place;
an edit that would show the same is skipped.

The status's edits are coalesced: the engine asks for a refresh two or three times per turn
(reply stored, moderator decided, next speaker), often within a second. A refresh opens a
short window; every refresh inside it folds into one edit at its end, showing the newest
state. A debate's final state is edited at once. Edits of one debate never overlap, and each
sends the newest state known when it starts, so the last edit always shows the last state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord import embeds
from bot.discord.layouts import status_layout
from bot.discord.room.records import NO_PINGS, RoomRecords
from bot.discord.views import status_controls
from bot.formatting import discord_time, status_line
from handlers.core.i18n import Strings
from handlers.core.model import Debate
from handlers.core.shorten import shorten
from handlers.leasing import LeaseLost
from handlers.ports import Clock
from handlers.store_ports import StoreUnavailable

log = logging.getLogger(__name__)

Edit = Callable[[Debate], Awaitable[None]]


class StatusEditor:
    """Latest-wins, windowed edits of each debate's status message."""

    def __init__(self, edit: Edit, window_s: float) -> None:
        self._edit = edit
        self._window_s = window_s
        self._latest: dict[int, Debate] = {}
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def update(self, debate: Debate) -> None:
        """Show `debate`'s state at the end of the window (the final state: now)."""
        self._latest[debate.id] = debate
        if debate.phase.is_terminal:
            self._cancel(debate.id)
            await self._send(debate.id)
        elif debate.id not in self._pending:
            task = asyncio.create_task(self._later(debate.id), name=f"status-{debate.id}")
            self._pending[debate.id] = task

    async def touch(self, debate: Debate) -> None:
        """Edit again with the newest state known (else `debate`): something beside it changed."""
        await self.update(self._latest.get(debate.id, debate))

    async def flush(self) -> None:
        """Send every scheduled edit now (before the client closes)."""
        for debate_id in list(self._pending):
            self._cancel(debate_id)
            with contextlib.suppress(discord.HTTPException, LeaseLost, StoreUnavailable):
                await self._send(debate_id)

    def _cancel(self, debate_id: int) -> None:
        task = self._pending.pop(debate_id, None)
        if task is not None:
            task.cancel()

    async def _send(self, debate_id: int) -> None:
        async with self._locks.setdefault(debate_id, asyncio.Lock()):
            debate = self._latest.get(debate_id)
            if debate is None:
                return  # the final state was sent already
            await self._edit(debate)
            if debate.phase.is_terminal:
                self._latest.pop(debate_id, None)  # nothing more will change
                self._locks.pop(debate_id, None)

    async def _later(self, debate_id: int) -> None:
        await asyncio.sleep(self._window_s)
        # Out of `pending` before editing: a refresh arriving meanwhile opens a new window.
        self._pending.pop(debate_id, None)
        try:
            await self._send(debate_id)
        except LeaseLost:
            pass  # another process runs the debate now: it keeps the status
        except StoreUnavailable as exc:  # the lease cannot be confirmed: the next edit tries
            log.warning("debate %s: status not edited: %s", debate_id, exc)
        except Exception:  # a background job's boundary: the next edit shows the state
            log.warning("debate %s: status edit failed", debate_id, exc_info=True)


class Pins:
    """Opens the thread with its pinned status; keeps the status and the claims up to date."""

    def __init__(
        self, records: RoomRecords, strings: Strings, clock: Clock, status_window_s: float
    ) -> None:
        self._records, self._strings, self._clock = records, strings, clock
        self.status = StatusEditor(self._edit_status, status_window_s)
        self.writing: set[tuple[int, str]] = set()  # (debate, participant) seen writing
        # What each pinned message (status, claims) shows now: an edit to the same is skipped.
        self._shown: dict[tuple[int, str], object] = {}

    def forget(self, debate_id: int) -> None:
        """Drop what is kept in memory for an ended debate."""
        self._shown.pop((debate_id, "status"), None)
        self._shown.pop((debate_id, "claims"), None)

    async def open(self, debate: Debate) -> None:
        """Create the thread from the card and pin its status message."""
        records, strings = self._records, self._strings.of(debate)
        if await records.recorded(debate.id, "thread") is None:
            thread = await self._create_thread(debate)
            records.keep_channel(thread, thread.id)
            await records.record(debate.id, "thread", (thread.id, thread.id, thread.jump_url))
        line = status_line(debate, strings, self._clock.now(), discord_time)
        layout = status_layout(line, status_controls(debate, strings))
        status = await records.send_once(debate, "status", view=layout)
        if await records.recorded(debate.id, "pinned") is None:
            await self._pin(debate, "status")
            await records.record(debate.id, "pinned", status)

    async def _create_thread(self, debate: Debate) -> discord.Thread:
        name = self._strings.of(debate)("front.thread_name", topic=debate.proposal.topic)
        name = shorten(name, 100)
        card = await self._records.message(debate.id, "card")
        if card is not None:
            try:
                return await card.create_thread(name=name, auto_archive_duration=1440)
            except discord.HTTPException as exc:
                if exc.code != 160004:  # a thread exists already: made before a crash
                    raise
                found = await self._records.client.fetch_channel(card.id)  # the card's id
                if isinstance(found, discord.Thread):
                    return found
                raise
        parent = await self._records.channel(debate.proposal.channel_id)
        if not isinstance(parent, discord.TextChannel):
            raise TypeError("debates need a text channel")
        return await parent.create_thread(name=name, type=discord.ChannelType.public_thread)

    async def _pin(self, debate: Debate, key: str) -> None:
        message = await self._records.message(debate.id, key)
        if message is not None:
            with contextlib.suppress(discord.HTTPException):  # pins are a nicety
                await message.pin()

    async def _edit_status(self, debate: Debate) -> None:
        message = await self._records.message(debate.id, "status")
        if message is None:
            return
        terminal, strings = debate.phase.is_terminal, self._strings.of(debate)
        content = status_line(debate, strings, self._clock.now(), discord_time)
        writing = [debate.name_of(s) for d, s in sorted(self.writing) if d == debate.id]
        if writing and not terminal:
            content += strings("front.status_writing", seat=", ".join(writing))
        controls = [] if terminal else status_controls(debate, strings)
        # What the message shows, buttons included: a button that appears or changes is an edit.
        shown = (content, [button.custom_id for button in controls])
        # A status posted as text (before the layouts) becomes a layout in place, still pinned:
        # Discord converts a message whose content is cleared in the same edit.
        layout = status_layout(content, controls)
        await self._edit(debate.id, "status", shown, message, content=None, view=layout)
        if terminal:
            self.forget(debate.id)  # the final status is the debate's last post

    async def claims(self, debate: Debate) -> None:
        """The claim board: a second pinned message in the thread, edited in place."""
        embed = embeds.claims_embed(debate, self._strings.of(debate))
        if await self._records.recorded(debate.id, "claims") is not None:
            message = await self._records.message(debate.id, "claims")
            if message is not None:
                await self._edit(debate.id, "claims", embed.to_dict(), message, embed=embed)
            return
        posted = await self._records.send_once(debate, "claims", embed=embed)
        await self._pin(debate, "claims")
        await self._records.record(debate.id, "claims-pinned", posted)

    async def _edit(
        self, debate_id: int, pin: str, shown: object, message: discord.PartialMessage, **edit: Any
    ) -> None:
        """Edit a pinned message unless it shows `shown` already."""
        if self._shown.get((debate_id, pin)) == shown:
            return  # the same text: an edit would change nothing
        self._shown[(debate_id, pin)] = shown
        try:
            await message.edit(allowed_mentions=NO_PINGS, **edit)
        except BaseException:
            self._shown.pop((debate_id, pin), None)  # not shown: the next edit is sent
            raise
