"""The room's records, the base of DiscordRoom: each message is posted under a stable key
and recorded in `room_messages`; a repeat of a call (after a restart) finds the record and
posts nothing again. A crash between the send and the record is covered by a nonce derived
from the key, which Discord deduplicates."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.render import nonce_of
from handlers.core.model import Debate
from tools.store.db import Database
from tools.store.room_messages import Posted, RoomMessages

NO_PINGS = discord.AllowedMentions.none()


class RecordingRoom:
    """Posts in the debate's channels once per key, and keeps what was posted where."""

    def __init__(self, client: discord.Client, db: Database) -> None:
        self._client = client
        self._messages = RoomMessages(db)
        self._channels: dict[int, discord.abc.Messageable] = {}
        # What each running debate has posted, read once from room_messages and then kept
        # up to date here: a repeat still finds every record, and a turn costs no lookups.
        self._posted: dict[int, dict[str, Posted]] = {}

    async def recorded(self, debate_id: int, key: str) -> Posted | None:
        """(channel id, message id, url) of a message posted under `key`."""
        posted = self._posted.get(debate_id)
        if posted is None:
            posted = self._posted.setdefault(debate_id, await self._messages.all_of(debate_id))
        return posted.get(key)

    async def _record(self, debate_id: int, key: str, posted: Posted) -> None:
        await self._record_all(debate_id, [(key, posted)])

    async def _record_all(self, debate_id: int, records: list[tuple[str, Posted]]) -> None:
        """Several records in one statement."""
        await self._messages.put_all(debate_id, records)
        if debate_id in self._posted:
            self._posted[debate_id].update(records)

    async def forget_record(self, debate_id: int, key: str) -> None:
        """Drop one record (a message that was deleted)."""
        await self._messages.delete(debate_id, key)
        self._posted.get(debate_id, {}).pop(key, None)

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

    async def send_once(self, debate: Debate, key: str, **kwargs: Any) -> Posted:
        """Post under `key` unless a message was recorded under it; record it."""
        found = await self.recorded(debate.id, key)
        if found:
            return found
        posted = await self._send(debate, key, **kwargs)
        await self._record(debate.id, key, posted)
        return posted

    async def _send(self, debate: Debate, key: str, **kwargs: Any) -> Posted:
        """Post without recording; the key's nonce makes a repeat harmless meanwhile."""
        channel = await self.thread(debate)
        message = await channel.send(
            allowed_mentions=NO_PINGS, nonce=nonce_of("room", debate.id, key), **kwargs
        )
        return (message.channel.id, message.id, message.jump_url)

    async def message(self, debate_id: int, key: str) -> discord.PartialMessage | None:
        """The message recorded under `key`, to edit in place; None if none was posted."""
        found = await self.recorded(debate_id, key)
        if not found:
            return None
        channel = await self._channel(found[0])
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return None
        return channel.get_partial_message(found[1])
