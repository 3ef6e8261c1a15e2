"""The debate's room in Discord: the card, the thread, its pinned status and every post.

Each message is recorded under a stable key in `room_messages`; a repeat of a call (after
a crash) finds the record and posts nothing again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from types import TracebackType
from typing import Any

import discord

from bot import embeds, render
from bot.i18n import Strings
from bot.views import card_view, question_view, status_view
from handlers.model import Conclusion, Debate, Seat, Turn, UserQuestion
from handlers.ports import Clock, Wiki
from handlers.prompting import SEAT_NAMES
from tools.db import Database

log = logging.getLogger(__name__)

SELECT_MESSAGE = (
    "SELECT channel_id, message_id, url FROM room_messages WHERE debate_id = ? AND key = ?"
)
INSERT_MESSAGE = """
INSERT OR REPLACE INTO room_messages (debate_id, key, channel_id, message_id, url)
VALUES (?, ?, ?, ?, ?)
"""
STILL_WORKING_EVERY_MIN = 3
TYPING_EVERY_S = 8.0  # Discord shows typing for about 10 s
NO_PINGS = discord.AllowedMentions.none()


class DiscordRoom:
    """Implements the engine's Room port on a discord.py client."""

    def __init__(
        self, client: discord.Client, db: Database, strings: Strings, wiki: Wiki, clock: Clock
    ) -> None:
        self._client = client
        self._db = db
        self._strings = strings
        self._wiki = wiki
        self._clock = clock

    # ---- records ----------------------------------------------------------------

    async def recorded(self, debate_id: int, key: str) -> tuple[int, int, str] | None:
        """(channel id, message id, url) of a message posted under `key`."""
        row = await self._db.fetch_one(SELECT_MESSAGE, (debate_id, key))
        return (int(row[0]), int(row[1]), str(row[2])) if row else None

    async def _record(self, debate_id: int, key: str, message: discord.Message) -> None:
        await self._db.execute(
            INSERT_MESSAGE,
            (debate_id, key, message.channel.id, message.id, message.jump_url),
        )

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self._client.get_channel(channel_id) or await self._client.fetch_channel(
            channel_id
        )
        if not isinstance(channel, discord.abc.Messageable):
            raise TypeError(f"channel {channel_id} cannot hold messages")
        return channel

    async def thread(self, debate: Debate) -> discord.abc.Messageable:
        """The debate's thread (or the card's channel before the thread exists)."""
        found = await self.recorded(debate.id, "thread")
        return await self._channel(found[0] if found else debate.proposal.channel_id)

    async def _send_once(self, debate: Debate, key: str, **kwargs: Any) -> tuple[int, int, str]:
        found = await self.recorded(debate.id, key)
        if found:
            return found
        channel = await self.thread(debate)
        message = await channel.send(allowed_mentions=NO_PINGS, **kwargs)
        await self._record(debate.id, key, message)
        return (message.channel.id, message.id, message.jump_url)

    async def _message(self, debate_id: int, key: str) -> discord.PartialMessage | None:
        found = await self.recorded(debate_id, key)
        if not found:
            return None
        channel = await self._channel(found[0])
        if not hasattr(channel, "get_partial_message"):
            return None
        message: discord.PartialMessage = channel.get_partial_message(found[1])
        return message

    # ---- the card ----------------------------------------------------------------

    async def post_card(self, debate: Debate) -> None:
        """The approval card with Open / Not now."""
        embed = embeds.card_embed(debate, self._strings)
        await self._send_once(debate, "card", embed=embed, view=card_view(debate.id, self._strings))

    async def close_card(self, debate: Debate) -> None:
        """Say how the card ended and remove its buttons."""
        message = await self._message(debate.id, "card")
        if message is None:
            return
        embed = embeds.card_embed(debate, self._strings, closed=True)
        await message.edit(embed=embed, view=None)

    # ---- the thread ----------------------------------------------------------------

    async def open(self, debate: Debate) -> None:
        """Create the thread from the card and pin its status message."""
        if await self.recorded(debate.id, "thread") is None:
            card = await self._message(debate.id, "card")
            name = self._strings("front.thread_name", topic=debate.proposal.topic)[:100]
            if card is not None:
                thread = await card.create_thread(name=name, auto_archive_duration=1440)
            else:
                parent = await self._channel(debate.proposal.channel_id)
                if not isinstance(parent, discord.TextChannel):
                    raise TypeError("debates need a text channel")
                thread = await parent.create_thread(
                    name=name, type=discord.ChannelType.public_thread
                )
            await self._db.execute(
                INSERT_MESSAGE, (debate.id, "thread", thread.id, thread.id, thread.jump_url)
            )
        status = await self._send_once(
            debate,
            "status",
            content=embeds.status_line(debate, self._strings, self._clock.now()),
            view=status_view(debate.id, self._strings),
        )
        if await self.recorded(debate.id, "pinned") is None:
            message = await self._message(debate.id, "status")
            if message is not None:
                with contextlib.suppress(discord.HTTPException):  # pins are a nicety
                    await message.pin()
            await self._db.execute(INSERT_MESSAGE, (debate.id, "pinned", *status))

    async def update_status(self, debate: Debate) -> None:
        """Edit the pinned status in place."""
        message = await self._message(debate.id, "status")
        if message is None:
            return
        view = None if debate.phase.is_terminal else status_view(debate.id, self._strings)
        await message.edit(
            content=embeds.status_line(debate, self._strings, self._clock.now()), view=view
        )

    async def post_turn(self, debate: Debate, turn: Turn) -> str:
        """The whole reply as coloured embeds, split over messages as Discord requires."""
        first = ""
        for index, batch in enumerate(render.turn_messages(turn, self._strings)):
            _, _, url = await self._send_once(debate, f"turn:{turn.number}:{index}", embeds=batch)
            first = first or url
        return first

    async def ask_user(self, debate: Debate, question: UserQuestion) -> None:
        """The moderator's question in amber, with one button per option."""
        await self._send_once(
            debate,
            f"ask:{debate.turns}",
            embed=embeds.question_embed(question, self._strings),
            view=question_view(debate.id, question.options),
        )

    async def post_conclusion(self, debate: Debate, conclusion: Conclusion) -> None:
        """The final summary with links to the four pages."""
        links = {page: self._wiki.page_url(debate, page) for page in embeds.PAGES}
        await self._send_once(
            debate,
            "conclusion",
            embed=embeds.conclusion_embed(debate, conclusion, links, self._strings),
        )

    async def notify(self, debate: Debate, key: str, params: dict[str, str]) -> None:
        """One localized line; failures named through the [failure] table."""
        if "kind" in params:
            params = params | {"kind": self._strings(f"failure.{params['kind']}")}
        text = self._strings(key, **params)
        channel = await self.thread(debate)
        await channel.send(text[:2000], allowed_mentions=NO_PINGS)

    def working(self, debate: Debate, seat: Seat) -> Working:
        """Typing while the debater works, and a 'still working' line every few minutes."""
        return Working(self, debate, seat)

    async def still_working(self, debate: Debate, seat: Seat, minutes: int) -> None:
        """Say that a long turn is still going."""
        channel = await self.thread(debate)
        text = self._strings("front.still_working", seat=SEAT_NAMES[seat], minutes=minutes)
        await channel.send(text, allowed_mentions=NO_PINGS)


class Working:
    """The typing indicator plus a periodic 'still working' line, while a turn runs."""

    def __init__(self, room: DiscordRoom, debate: Debate, seat: Seat) -> None:
        self._room, self._debate, self._seat = room, debate, seat
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, discord.HTTPException):
                await self._task

    async def _run(self) -> None:
        channel = await self._room.thread(self._debate)
        loop = asyncio.get_running_loop()
        started, announced = loop.time(), 0
        while True:
            with contextlib.suppress(discord.HTTPException):  # typing is a nicety
                await channel.typing()
            await asyncio.sleep(TYPING_EVERY_S)
            minutes = int((loop.time() - started) // 60)
            if minutes >= announced + STILL_WORKING_EVERY_MIN:
                announced = minutes
                await self._room.still_working(self._debate, self._seat, minutes)
