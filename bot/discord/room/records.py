"""What the Discord room posted where: each message is posted under a stable key and recorded
in `room_messages`; a repeat of a call (after a restart) finds the record and posts nothing
again. A crash between the send and the record is covered by a nonce derived from the key,
which Discord deduplicates. Every part of the room (card, turn, poll, ...) posts through it, by
`thread` or `message`, which first confirm the debate's lease (a process paused past it writes
nothing more when it wakes)."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.render import nonce_of
from handlers.core.model import Debate
from handlers.leasing import EveryDebate, LeaseGuard
from tools.store.room_messages import Posted, RoomMessages

NO_PINGS = discord.AllowedMentions.none()


class RoomRecords:
    """Posts in the debate's channels once per key, and keeps what was posted where."""

    def __init__(
        self, client: discord.Client, messages: RoomMessages, guard: LeaseGuard | None = None
    ) -> None:
        self.client = client
        self.messages = messages
        self.guard = guard or EveryDebate()
        self._channels: dict[int, discord.abc.Messageable] = {}  # threads made: none to fetch

    async def recorded(self, debate_id: int, key: str) -> Posted | None:
        """(channel id, message id, url) of a message posted under `key`."""
        return (await self.messages.all_of(debate_id)).get(key)

    async def keys(self, debate_id: int, prefix: str) -> list[str]:
        """The keys recorded for the debate that start with `prefix`."""
        return [key for key in await self.messages.all_of(debate_id) if key.startswith(prefix)]

    async def record(self, debate_id: int, key: str, posted: Posted) -> None:
        """Keep where the message posted under `key` is."""
        await self.messages.put_all(debate_id, [(key, posted)])

    def keep_channel(self, channel: discord.abc.Messageable, channel_id: int) -> None:
        """Remember a channel just made (a thread), so it is not fetched again."""
        self._channels[channel_id] = channel

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        """A channel by id: kept, cached by discord.py, or fetched."""
        cached = self._channels.get(channel_id) or self.client.get_channel(channel_id)
        channel = cached or await self.client.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise TypeError(f"channel {channel_id} cannot hold messages")
        self._channels[channel_id] = channel
        return channel

    async def thread(self, debate: Debate) -> discord.abc.Messageable:
        """The debate's thread (or the card's channel before the thread exists), to write in."""
        await self.guard.confirm(debate.id)
        found = await self.recorded(debate.id, "thread")
        return await self.channel(found[0] if found else debate.proposal.channel_id)

    async def send_once(self, debate: Debate, key: str, **kwargs: Any) -> Posted:
        """Post under `key` unless a message was recorded under it; record it."""
        found = await self.recorded(debate.id, key)
        if found:
            return found
        posted = await self.send(debate, key, **kwargs)
        await self.record(debate.id, key, posted)
        return posted

    async def send(self, debate: Debate, key: str, **kwargs: Any) -> Posted:
        """Post without recording; the key's nonce makes a repeat harmless meanwhile."""
        channel = await self.thread(debate)
        message = await channel.send(
            allowed_mentions=NO_PINGS, nonce=nonce_of("room", debate.id, key), **kwargs
        )
        return (message.channel.id, message.id, message.jump_url)

    async def message(self, debate_id: int, key: str) -> discord.PartialMessage | None:
        """The message recorded under `key`, to edit in place; None if none was posted."""
        await self.guard.confirm(debate_id)
        found = await self.recorded(debate_id, key)
        if not found:
            return None
        channel = await self.channel(found[0])
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return None
        return channel.get_partial_message(found[1])
