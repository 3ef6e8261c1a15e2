"""The debate's room in Discord: the card, the thread, its pinned status and every post.

Each message is recorded under a stable key in `room_messages`; a repeat of a call (after
a restart) finds the record and posts nothing again. A crash between the send and the
record is covered by a nonce derived from the key, which Discord deduplicates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import discord

from bot.discord import embeds, render
from bot.discord.relay_tidy import clear_relay
from bot.discord.render import nonce_of
from bot.discord.render_split import split_text
from bot.discord.room_status import StatusEditor
from bot.discord.views import budget_view, card_view, question_view, status_view
from handlers.formats import format_named
from handlers.i18n import Strings
from handlers.model import Backend, Conclusion, Debate, Turn, UserQuestion
from handlers.ports import Clock, Wiki
from handlers.shorten import shorten
from tools.store.db import Database
from tools.store.room_messages import Posted, RoomMessages
from tools.wiki.pages import fill_keys

log = logging.getLogger(__name__)

SELECT_DECIDED_BY = "SELECT decided_by FROM proposals WHERE debate_id = ?"
# Status refreshes within this window become one edit: a turn's two or three refreshes
# usually come within a second, and Discord allows about five edits per five seconds.
STATUS_WINDOW_S = 1.5
CONTENT_LIMIT = 2000
NO_PINGS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class Pace:
    """How often a working debater is shown: typing, and a 'still working' line."""

    typing_every_s: float = 8.0  # Discord shows typing for about 10 s
    still_working_every_s: float = 180.0


class DiscordRoom:
    """Implements the engine's Room port on a discord.py client."""

    def __init__(
        self,
        client: discord.Client,
        db: Database,
        strings: Strings,
        wiki: Wiki,
        clock: Clock,
        *,
        status_window_s: float = STATUS_WINDOW_S,
        pace: Pace = Pace(),
    ) -> None:
        self._client = client
        self._db = db
        self._messages = RoomMessages(db)
        self._strings = strings
        self._wiki = wiki
        self._clock = clock
        self.pace = pace
        self._channels: dict[int, discord.abc.Messageable] = {}
        # What each running debate has posted, read once from room_messages and then kept
        # up to date here: a repeat still finds every record, and a turn costs no lookups.
        self._posted: dict[int, dict[str, Posted]] = {}
        self.status = StatusEditor(self._edit_status, status_window_s)

    async def aclose(self) -> None:
        """Send the status edits still scheduled (before the client closes)."""
        await self.status.flush()

    # ---- records ----------------------------------------------------------------

    async def recorded(self, debate_id: int, key: str) -> Posted | None:
        """(channel id, message id, url) of a message posted under `key`."""
        posted = self._posted.get(debate_id)
        if posted is None:
            posted = self._posted.setdefault(debate_id, await self._messages.all_of(debate_id))
        return posted.get(key)

    async def _record(self, debate_id: int, key: str, posted: Posted) -> None:
        await self._messages.put(debate_id, key, posted)
        if debate_id in self._posted:
            self._posted[debate_id][key] = posted

    def forget(self, debate_id: int) -> None:
        """Drop what is kept in memory for an ended debate (the records stay in SQLite)."""
        thread = self._posted.pop(debate_id, {}).get("thread")
        if thread is not None:
            self._channels.pop(thread[0], None)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        cached = self._channels.get(channel_id) or self._client.get_channel(channel_id)
        channel = cached or await self._client.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise TypeError(f"channel {channel_id} cannot hold messages")
        self._channels[channel_id] = channel
        return channel

    async def thread(self, debate: Debate) -> discord.abc.Messageable:
        """The debate's thread (or the card's channel before the thread exists)."""
        found = await self.recorded(debate.id, "thread")
        return await self._channel(found[0] if found else debate.proposal.channel_id)

    async def _send_once(self, debate: Debate, key: str, **kwargs: Any) -> Posted:
        found = await self.recorded(debate.id, key)
        if found:
            return found
        channel = await self.thread(debate)
        message = await channel.send(
            allowed_mentions=NO_PINGS, nonce=nonce_of("room", debate.id, key), **kwargs
        )
        posted = (message.channel.id, message.id, message.jump_url)
        await self._record(debate.id, key, posted)
        return posted

    async def _message(self, debate_id: int, key: str) -> discord.PartialMessage | None:
        found = await self.recorded(debate_id, key)
        if not found:
            return None
        channel = await self._channel(found[0])
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return None
        return channel.get_partial_message(found[1])

    # ---- the card ----------------------------------------------------------------

    async def post_card(self, debate: Debate) -> None:
        """The approval card with Open / Not now (and the formats to choose from)."""
        embed = embeds.card_embed(debate, self._strings)
        view = card_view(debate, self._strings)
        await self._send_once(debate, "card", embed=embed, view=view)

    async def close_card(self, debate: Debate) -> None:
        """Say how the card ended (and who ended it) and remove its buttons."""
        message = await self._message(debate.id, "card")
        if message is None:
            return
        rows = await self._db.fetch_all(SELECT_DECIDED_BY, (debate.id,))
        decided_by = int(rows[0][0]) if rows and rows[0][0] else debate.approved_by
        embed = embeds.card_embed(debate, self._strings, closed=True, decided_by=decided_by)
        await message.edit(embed=embed, view=None, allowed_mentions=NO_PINGS)

    # ---- the thread ----------------------------------------------------------------

    async def open(self, debate: Debate) -> None:
        """Create the thread from the card and pin its status message."""
        if await self.recorded(debate.id, "thread") is None:
            thread = await self._create_thread(debate)
            self._channels[thread.id] = thread
            await self._record(debate.id, "thread", (thread.id, thread.id, thread.jump_url))
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
            await self._record(debate.id, "pinned", status)

    async def _create_thread(self, debate: Debate) -> discord.Thread:
        name = shorten(self._strings("front.thread_name", topic=debate.proposal.topic), 100)
        card = await self._message(debate.id, "card")
        if card is not None:
            try:
                return await card.create_thread(name=name, auto_archive_duration=1440)
            except discord.HTTPException as exc:
                if exc.code != 160004:  # a thread exists already: made before a crash
                    raise
                found = await self._client.fetch_channel(card.id)  # it has the card's id
                if isinstance(found, discord.Thread):
                    return found
                raise
        parent = await self._channel(debate.proposal.channel_id)
        if not isinstance(parent, discord.TextChannel):
            raise TypeError("debates need a text channel")
        return await parent.create_thread(name=name, type=discord.ChannelType.public_thread)

    async def update_status(self, debate: Debate) -> None:
        """Edit the pinned status in place (bursts coalesce into one edit)."""
        await self.status.update(debate)

    async def _edit_status(self, debate: Debate) -> None:
        message = await self._message(debate.id, "status")
        if message is None:
            return
        view = None if debate.phase.is_terminal else status_view(debate.id, self._strings)
        content = embeds.status_line(debate, self._strings, self._clock.now())
        await message.edit(content=content, view=view, allowed_mentions=NO_PINGS)
        if debate.phase.is_terminal:
            self.forget(debate.id)  # the final status is the debate's last post

    async def post_turn(self, debate: Debate, turn: Turn) -> str:
        """The whole reply as coloured embeds, split over messages as Discord requires."""
        first = ""
        for index, batch in enumerate(render.turn_messages(turn, self._strings, debate)):
            _, _, url = await self._send_once(debate, f"turn:{turn.number}:{index}", embeds=batch)
            first = first or url
        relayed = debate.member(turn.seat).backend is Backend.AG_RELAY
        # shown once: as this embed
        await clear_relay(self._client, self._messages, turn, relayed=relayed)
        return first

    async def update_claims(self, debate: Debate) -> None:
        """The claim ledger: a second pinned message in the thread, edited in place."""
        embed = embeds.claims_embed(debate, self._strings)
        if await self.recorded(debate.id, "claims") is not None:
            message = await self._message(debate.id, "claims")
            if message is not None:
                await message.edit(embed=embed, allowed_mentions=NO_PINGS)
            return
        posted = await self._send_once(debate, "claims", embed=embed)
        message = await self._message(debate.id, "claims")
        if message is not None:
            with contextlib.suppress(discord.HTTPException):  # pins are a nicety
                await message.pin()
        await self._record(debate.id, "claims-pinned", posted)

    async def ask_budget(self, debate: Debate) -> None:
        """A pause (the budget spent, or converging): the people's buttons (once per pause)."""
        await self._send_once(
            debate,
            f"pause:{debate.turns}",
            embed=embeds.budget_embed(debate, self._strings),
            view=budget_view(debate, self._strings),
        )

    async def ask_user(self, debate: Debate, question: UserQuestion) -> None:
        """The moderator's question in amber, with one button per option."""
        body = embeds.question_body(question)
        if len(body) > embeds.QUESTION_LIMIT:
            # Too long for the button message's embed: the whole question first, in full.
            whole = render.text_messages(body, colour=embeds.AMBER)
            for index, batch in enumerate(whole):
                await self._send_once(debate, f"ask:{debate.turns}:text:{index}", embeds=batch)
        await self._send_once(
            debate,
            f"ask:{debate.turns}",
            embed=embeds.question_embed(question, self._strings),
            view=question_view(debate.id, question.options, question.form, self._form(question)),
        )

    def _form(self, question: UserQuestion) -> str:
        """The label of the question's form button (the card option's words)."""
        key = f"front.option_{question.form.replace('.', '_')}"
        return self._strings(key) if question.form and self._strings.has(key) else ""

    async def post_conclusion(self, debate: Debate, conclusion: Conclusion) -> None:
        """The final summary with links to the pages the debate wrote (no dead links)."""
        written = format_named(debate.format).pages(debate)
        links = {page: self._wiki.page_url(debate, page) for page in written}
        await self._send_once(
            debate,
            "conclusion",
            embed=embeds.conclusion_embed(debate, conclusion, links, self._strings),
        )

    async def post_summary(self, debate: Debate, markdown: str) -> None:
        """The format's closing block, grey, with links to the pages it wrote; in the
        Conclusion's place when it stands in for one."""
        fmt = format_named(debate.format)
        links = {page: self._wiki.page_url(debate, page) for page in fmt.pages(debate)}
        closing = fmt.closes_itself(debate)
        text = fill_keys(markdown, self._strings)
        embed = embeds.summary_embed(debate.format, text, links, self._strings, closing=closing)
        await self._send_once(debate, "conclusion" if closing else "summary", embed=embed)

    async def notify(self, debate: Debate, key: str, params: dict[str, str]) -> None:
        """One localized line, in full; failures named through the [failure] table."""
        if "kind" in params:
            params = params | {"kind": self._strings(f"failure.{params['kind']}")}
        text = self._strings(key, **params)
        channel = await self.thread(debate)
        # The same notice in the same state is the same notice: re-sent after a crash, it is
        # dropped by its nonce.
        state = (debate.id, debate.phase, debate.turns, debate.attempt, key, sorted(params.items()))
        for index, piece in enumerate(split_text(text, CONTENT_LIMIT)):
            await channel.send(piece, allowed_mentions=NO_PINGS, nonce=nonce_of(*state, index))

    def working(self, debate: Debate, seat: str) -> Working:
        """Typing while the debater works, and a 'still working' line every few minutes."""
        return Working(self, debate, seat)

    async def still_working(self, debate: Debate, seat: str, minutes: int) -> None:
        """Say that a long turn is still going."""
        channel = await self.thread(debate)
        text = self._strings("front.still_working", seat=debate.name_of(seat), minutes=minutes)
        await channel.send(text, allowed_mentions=NO_PINGS)


class Working:
    """The typing indicator plus a periodic 'still working' line, while a turn runs."""

    def __init__(self, room: DiscordRoom, debate: Debate, seat: str) -> None:
        self._room, self._debate, self._seat = room, debate, seat
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._task is None:
            return
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():  # type: ignore[union-attr]  # in a task
                raise  # the turn itself is being cancelled, not just its typing
        except Exception:  # typing is a nicety: it never costs the debater's reply
            log.warning("debate %s: typing indicator failed", self._debate.id, exc_info=True)

    async def _run(self) -> None:
        channel = await self._room.thread(self._debate)
        pace = self._room.pace
        loop = asyncio.get_running_loop()
        started, announced = loop.time(), 1
        while True:
            with contextlib.suppress(discord.HTTPException):  # typing is a nicety
                await channel.typing()
            await asyncio.sleep(pace.typing_every_s)
            elapsed = loop.time() - started
            if elapsed >= announced * pace.still_working_every_s:
                announced += 1
                minutes = int(elapsed // 60)
                await self._room.still_working(self._debate, self._seat, minutes)
