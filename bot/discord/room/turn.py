"""A turn in the thread: shown live while it is written (one embed that appears with the
first text and grows), then posted whole once it is stored.

The live message is a view, never the record: it is recorded under `live:{turn}:{generation}`
(the lease's, handlers.leasing) so that a retry or a restart of the same holder edits the same
message instead of posting another, and when the turn is stored `post_turn` edits it into the
reply's first final message. A new holder never adopts an earlier holder's live message (that
process, paused, may still touch it): it deletes it and shows its own.
Edits of one live message are at least `window_s` apart (Discord allows about five edits per
five seconds per channel, and the status message shares them); each sends the newest text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from types import TracebackType

import discord

from bot.discord import render
from bot.discord.relay_tidy import clear_relay
from bot.discord.room.pins import Pins
from bot.discord.room.records import NO_PINGS, RoomRecords
from bot.formatting import seat_colour
from handlers.core.i18n import Strings
from handlers.core.model import Backend, Debate, Turn
from handlers.core.turns.steps import awaited, format_of
from handlers.leasing import LeaseLost
from handlers.store_ports import StoreUnavailable
from tools.store.room_messages import Posted

log = logging.getLogger(__name__)

LIVE_WINDOW_S = 1.5
LIVE_TEXT_LIMIT = 3800  # of an embed's 4096, leaving room for the note


@dataclass(frozen=True)
class Pace:
    """How often a working debater is shown: typing, and a 'still working' line."""

    typing_every_s: float = 8.0  # Discord shows typing for about 10 s
    still_working_every_s: float = 180.0


DEFAULT_PACE = Pace()


@dataclass
class Live:
    """What a working debater is shown with: the room's records, words and pins, the pace."""

    records: RoomRecords
    strings: Strings
    pins: Pins
    pace: Pace = DEFAULT_PACE
    window_s: float = LIVE_WINDOW_S


def live_key(turn: int, generation: int | None) -> str:
    """The room_messages key of a turn's live message, shown under the lease `generation`."""
    return f"live:{turn}:{generation}"


def live_embed(debate: Debate, seat: str, text: str, strings: Strings) -> discord.Embed:
    """The reply so far; past the limit, its latest part, and the embed says so."""
    name = debate.name_of(seat)
    if len(text) <= LIVE_TEXT_LIMIT:
        shown, note = text, strings("front.live_note", seat=name)
    else:
        shown = "…" + text[-LIVE_TEXT_LIMIT:]
        note = strings("front.live_note_cut", seat=name, shown=LIVE_TEXT_LIMIT, total=len(text))
    embed = discord.Embed(description=shown, colour=discord.Colour(seat_colour(seat, debate)))
    embed.set_author(name=name)
    embed.set_footer(text=note)
    return embed


async def post_turn(records: RoomRecords, strings: Strings, debate: Debate, turn: Turn) -> str:
    """The whole reply as embeds over as many messages as needed, once; its first one's link."""
    first, new = "", []
    for index, batch in enumerate(render.turn_messages(turn, strings, debate)):
        key = f"turn:{turn.number}:{index}"
        posted = await records.recorded(debate.id, key)
        if posted is None:
            live = await _replace_live(records, debate, turn.number, batch) if index == 0 else None
            posted = live or await records.send(debate, key, embeds=batch)
            new.append((key, posted))
        first = first or posted[2]
    await records.messages.put_all(debate.id, new)  # together: the nonces cover a crash before
    relayed = debate.member(turn.seat).backend is Backend.AG_RELAY
    # shown once: as this embed
    await clear_relay(records.client, records.messages, turn, relayed=relayed)
    return first


async def _replace_live(
    records: RoomRecords, debate: Debate, turn: int, batch: list[discord.Embed]
) -> Posted | None:
    """This holder's live message edited into the first final one (an earlier holder's goes)."""
    key = live_key(turn, records.guard.generation(debate.id))
    await drop_live(records, debate.id, turn, keep=key)
    live = await records.recorded(debate.id, key)
    message = await records.message(debate.id, key)
    if live is None or message is None:
        return None
    try:
        await message.edit(
            content=None, embeds=batch, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.NotFound:  # deleted by someone: the reply is posted anew
        return None
    return live


async def drop_live(records: RoomRecords, debate_id: int, turn: int, keep: str = "") -> None:
    """Delete the turn's live messages, but `keep`."""
    for key in await records.keys(debate_id, "live:"):
        if key == keep or key.split(":")[1] != str(turn):
            continue
        message = await records.message(debate_id, key)
        if message is not None:
            with contextlib.suppress(discord.HTTPException):
                await message.delete()
        await records.messages.delete(debate_id, key)


class LiveReply:
    """The live message of one turn: shown on the first text, edited at most once a window."""

    def __init__(self, live: Live, debate: Debate, seat: str, turn: int) -> None:
        self._live, self._debate, self._seat, self._turn = live, debate, seat, turn
        self._key = live_key(turn, live.records.guard.generation(debate.id))
        self._text = ""
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._put: asyncio.Task[None] | None = None
        self.edits = 0  # sends and edits of this live message

    def show(self, text: str) -> None:
        """Take the newest text; the message catches up within a window."""
        if not text or text == self._text:
            return
        self._text = text
        self._changed.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"live-{self._debate.id}")

    async def stop(self, failed: bool) -> None:
        """No more edits; a failed turn's live message goes (its retry starts a new one)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._put is not None:  # an edit on the wire lands before anything else does
            with contextlib.suppress(asyncio.CancelledError, discord.HTTPException, LeaseLost):
                await self._put
        if failed:
            await drop_live(self._live.records, self._debate.id, self._turn)

    async def _run(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            self._put = asyncio.create_task(self._send(self._text))
            try:
                await asyncio.shield(self._put)
            except LeaseLost:
                return  # another process runs the debate now: this one writes nothing more
            except StoreUnavailable as exc:  # the next change tries again
                log.warning("debate %s: live reply edit not recorded: %s", self._debate.id, exc)
            except Exception:  # a background view's boundary: the reply itself is not touched
                log.warning("debate %s: live reply edit failed", self._debate.id, exc_info=True)
            await asyncio.sleep(self._live.window_s)

    async def _send(self, text: str) -> None:
        records, key = self._live.records, self._key
        embed = live_embed(self._debate, self._seat, text, self._live.strings.of(self._debate))
        self.edits += 1
        if await records.recorded(self._debate.id, key) is None:
            await records.send_once(self._debate, key, embed=embed)
            return
        message = await records.message(self._debate.id, key)
        if message is not None:
            await message.edit(embed=embed, allowed_mentions=NO_PINGS)


class Working:
    """The typing indicator plus a periodic 'still working' line, while a turn runs."""

    def __init__(self, live: Live, debate: Debate, seat: str) -> None:
        self._parts, self._debate, self._seat = live, debate, seat
        self._pins = live.pins
        self._task: asyncio.Task[None] | None = None
        self._status: asyncio.Task[None] | None = None
        turn = next((a.turn for a in awaited(debate) if a.participant == seat), None)
        # A step whose answers the format holds until all are in (a blind round) shows none
        # of an answer before its barrier: no live text either, only that someone is writing.
        blind = format_of(debate).holds(debate)
        self.live = LiveReply(live, debate, seat, turn) if turn is not None and not blind else None

    def show_text(self, text_so_far: str) -> None:
        """Show the reply written so far in the thread; the status says who is writing."""
        key = (self._debate.id, self._seat)
        if key not in self._pins.writing:
            self._pins.writing.add(key)
            self._status = asyncio.create_task(self._pins.status.touch(self._debate))
        if self.live is not None:
            self.live.show(text_so_far)

    async def __aenter__(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.live is not None:
            with contextlib.suppress(LeaseLost):  # another process shows the turn now
                await self.live.stop(failed=e is not None)
        if (self._debate.id, self._seat) in self._pins.writing:
            self._pins.writing.discard((self._debate.id, self._seat))
            if e is not None:  # a stored reply refreshes the status anyway
                with contextlib.suppress(Exception):  # a nicety, never the turn's outcome
                    await self._pins.status.touch(self._debate)
        if self._task is None:
            return
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():  # type: ignore[union-attr]  # in a task
                raise  # the turn itself is being cancelled, not just its typing
        except LeaseLost:
            pass  # another process shows the turn now
        except StoreUnavailable as exc:  # the lease cannot be confirmed: no typing meanwhile
            log.warning("debate %s: typing indicator stopped: %s", self._debate.id, exc)
        except Exception:  # typing is a nicety: it never costs the debater's reply
            log.warning("debate %s: typing indicator failed", self._debate.id, exc_info=True)

    async def _run(self) -> None:
        pace = self._parts.pace
        loop = asyncio.get_running_loop()
        started, announced = loop.time(), 1
        while True:
            channel = await self._parts.records.thread(self._debate)  # each time: fenced
            elapsed = loop.time() - started
            if elapsed >= announced * pace.still_working_every_s:
                announced += 1
                await self._still_working(channel, int(elapsed // 60))
            if self.live is None or not self.live.edits:  # a growing reply shows enough
                with contextlib.suppress(discord.HTTPException):  # typing is a nicety
                    await channel.typing()
            await asyncio.sleep(pace.typing_every_s)

    async def _still_working(self, channel: discord.abc.Messageable, minutes: int) -> None:
        """Say that a long turn is still going."""
        name = self._debate.name_of(self._seat)
        said = self._parts.strings.of(self._debate)
        text = said("front.still_working", seat=name, minutes=minutes)
        await channel.send(text, allowed_mentions=NO_PINGS)
