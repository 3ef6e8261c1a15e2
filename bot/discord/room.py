"""The debate's room in Discord: the card, the thread, its pinned status and every post.

Each message is posted once under a stable key (bot/discord/room_records.py), so a repeat of
a call after a restart posts nothing again.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot.discord import embeds, render
from bot.discord.poll_embeds import with_decision
from bot.discord.relay_tidy import clear_relay
from bot.discord.render import nonce_of
from bot.discord.render_split import split_text
from bot.discord.room_live import DEFAULT_PACE, LIVE_WINDOW_S, Pace, Working, replace_live
from bot.discord.room_poll import PollRoom
from bot.discord.room_records import NO_PINGS, RecordingRoom
from bot.discord.room_status import StatusEditor
from bot.discord.views import budget_view, card_view, question_view, status_view
from bot.formatting import notice_params
from handlers.core.formats import format_named
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import Backend, Conclusion, Debate, Turn, UserQuestion
from handlers.core.shorten import shorten
from handlers.ports import Clock, Wiki
from tools.store.db import Database

log = logging.getLogger(__name__)

SELECT_DECIDED_BY = "SELECT decided_by FROM proposals WHERE debate_id = ?"
# Status refreshes within this window become one edit: a turn's two or three refreshes
# usually come within a second, and Discord allows about five edits per five seconds.
STATUS_WINDOW_S = 1.5
CONTENT_LIMIT = 2000


class DiscordRoom(PollRoom, RecordingRoom):
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
        pace: Pace = DEFAULT_PACE,
        live_window_s: float = LIVE_WINDOW_S,
    ) -> None:
        super().__init__(client, db)
        self._db = db
        self._strings = self.strings = strings
        self.live_window_s = live_window_s
        self.live_edits = 0  # live messages sent and edited, for the benchmark
        self.writing: set[tuple[int, str]] = set()  # (debate, participant) seen writing
        self._wiki = wiki
        self._clock = clock
        self.pace = pace
        self.status = StatusEditor(self._edit_status, status_window_s)
        # What each pinned message (status, claims) shows now: an edit to the same is skipped.
        self._pinned: dict[tuple[int, str], object] = {}

    async def aclose(self) -> None:
        """Send the status edits still scheduled (before the client closes)."""
        await self.status.flush()

    def forget(self, debate_id: int) -> None:
        """Drop what is kept in memory for an ended debate (the records stay in SQLite)."""
        self._pinned.pop((debate_id, "status"), None)
        self._pinned.pop((debate_id, "claims"), None)
        thread = self._posted.pop(debate_id, {}).get("thread")
        if thread is not None:
            self._channels.pop(thread[0], None)

    # ---- the card ----------------------------------------------------------------

    async def post_card(self, debate: Debate) -> None:
        """The approval card with Open / Not now (and the formats to choose from)."""
        embed = embeds.card_embed(debate, self._strings)
        view = card_view(debate, self._strings)
        await self.send_once(debate, "card", embed=embed, view=view)

    async def close_card(self, debate: Debate) -> None:
        """Say how the card ended (and who ended it) and remove its buttons."""
        message = await self.message(debate.id, "card")
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
        status = await self.send_once(
            debate,
            "status",
            content=embeds.status_line(debate, self._strings, self._clock.now()),
            view=status_view(debate.id, self._strings),
        )
        if await self.recorded(debate.id, "pinned") is None:
            message = await self.message(debate.id, "status")
            if message is not None:
                with contextlib.suppress(discord.HTTPException):  # pins are a nicety
                    await message.pin()
            await self._record(debate.id, "pinned", status)

    async def _create_thread(self, debate: Debate) -> discord.Thread:
        name = shorten(self._strings("front.thread_name", topic=debate.proposal.topic), 100)
        card = await self.message(debate.id, "card")
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
        message = await self.message(debate.id, "status")
        if message is None:
            return
        terminal = debate.phase.is_terminal
        content = embeds.status_line(debate, self._strings, self._clock.now())
        writing = [debate.name_of(s) for d, s in sorted(self.writing) if d == debate.id]
        if writing and not terminal:
            content += self._strings("front.status_writing", seat=", ".join(writing))
        if self._pinned.get((debate.id, "status")) != (content, terminal):  # else: no change
            view = None if terminal else status_view(debate.id, self._strings)
            shown = (content, terminal)
            await self._edit_pinned(debate.id, "status", shown, message, content=content, view=view)
        if debate.phase.is_terminal:
            self.forget(debate.id)  # the final status is the debate's last post

    async def post_turn(self, debate: Debate, turn: Turn) -> str:
        """The whole reply as coloured embeds, split over messages as Discord requires; the
        messages are recorded together at the end (their nonces cover a crash before)."""
        first, new = "", []
        for index, batch in enumerate(render.turn_messages(turn, self._strings, debate)):
            key = f"turn:{turn.number}:{index}"
            posted = await self.recorded(debate.id, key)
            if posted is None:
                live = await replace_live(self, debate, turn.number, batch) if index == 0 else None
                posted = live or await self._send(debate, key, embeds=batch)
                new.append((key, posted))
            first = first or posted[2]
        await self._record_all(debate.id, new)
        relayed = debate.member(turn.seat).backend is Backend.AG_RELAY
        # shown once: as this embed
        await clear_relay(self._client, self._messages, turn, relayed=relayed)
        return first

    async def update_claims(self, debate: Debate) -> None:
        """The claim ledger: a second pinned message in the thread, edited in place."""
        embed = embeds.claims_embed(debate, self._strings)
        if await self.recorded(debate.id, "claims") is not None:
            message = await self.message(debate.id, "claims")
            if message is not None:
                await self._edit_pinned(debate.id, "claims", embed.to_dict(), message, embed=embed)
            return
        posted = await self.send_once(debate, "claims", embed=embed)
        message = await self.message(debate.id, "claims")
        if message is not None:
            with contextlib.suppress(discord.HTTPException):  # pins are a nicety
                await message.pin()
        await self._record(debate.id, "claims-pinned", posted)

    async def _edit_pinned(
        self,
        debate_id: int,
        pin: str,
        shown: object,
        message: discord.PartialMessage,
        **edit: Any,
    ) -> None:
        """Edit a pinned message (status, claims) unless it shows `shown` already."""
        if self._pinned.get((debate_id, pin)) == shown:
            return  # the same text: an edit would change nothing
        self._pinned[(debate_id, pin)] = shown
        try:
            await message.edit(allowed_mentions=NO_PINGS, **edit)
        except BaseException:
            self._pinned.pop((debate_id, pin), None)  # not shown: the next edit is sent
            raise

    async def ask_budget(self, debate: Debate) -> None:
        """A pause (the budget spent, or converging): the people's buttons (once per pause)."""
        await self.send_once(
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
                await self.send_once(debate, f"ask:{debate.turns}:text:{index}", embeds=batch)
        await self.send_once(
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
        await self.send_once(
            debate,
            "conclusion",
            embed=with_decision(
                embeds.conclusion_embed(debate, conclusion, links, self._strings),
                debate,
                self._strings,
            ),
        )

    async def post_summary(self, debate: Debate, markdown: str) -> None:
        """The format's closing block, grey, with links to the pages it wrote; in the
        Conclusion's place when it stands in for one."""
        fmt = format_named(debate.format)
        links = {page: self._wiki.page_url(debate, page) for page in fmt.pages(debate)}
        closing = fmt.closes_itself(debate)
        text = fill_keys(markdown, self._strings)
        embed = embeds.summary_embed(debate.format, text, links, self._strings, closing=closing)
        await self.send_once(debate, "conclusion" if closing else "summary", embed=embed)

    async def notify(self, debate: Debate, key: str, params: dict[str, str]) -> None:
        """One localized line, in full (its values as `notice_params` words them)."""
        params = notice_params(self._strings, params)
        text = self._strings(key, **params)
        channel = await self.thread(debate)
        # The same notice in the same state is the same notice: re-sent after a crash, it is
        # dropped by its nonce.
        state = (debate.id, debate.phase, debate.turns, debate.attempt, key, sorted(params.items()))
        for index, piece in enumerate(split_text(text, CONTENT_LIMIT)):
            await channel.send(piece, allowed_mentions=NO_PINGS, nonce=nonce_of(*state, index))

    def working(self, debate: Debate, seat: str) -> Working:
        """Typing while the debater works, a 'still working' line every few minutes, and
        the reply as it is written."""
        return Working(self, debate, seat)

    async def still_working(self, debate: Debate, seat: str, minutes: int) -> None:
        """Say that a long turn is still going."""
        channel = await self.thread(debate)
        text = self._strings("front.still_working", seat=debate.name_of(seat), minutes=minutes)
        await channel.send(text, allowed_mentions=NO_PINGS)
