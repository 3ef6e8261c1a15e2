"""The people's poll in the Discord room (issue 18, feature 2), mixed into DiscordRoom: the
minority report, the native poll, and reading it once it ends (the message is fetched anew:
after a restart discord.py's cache is gone, and a fetched message carries the final counts).
Every post is recorded under its key, so a repeat after a restart posts nothing twice."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.poll_embeds import discord_poll, poll_note, report_messages
from handlers.core.i18n import Strings
from handlers.core.model import Debate
from handlers.ports import Clock

if TYPE_CHECKING:
    from tools.store.room_messages import Posted

log = logging.getLogger(__name__)


class PollRoom:
    """The Room port's poll methods; DiscordRoom supplies the records and the channels."""

    _strings: Strings
    _clock: Clock

    if TYPE_CHECKING:

        async def send_once(self, debate: Debate, key: str, **kwargs: Any) -> Posted: ...

        async def recorded(self, debate_id: int, key: str) -> Posted | None: ...

        async def _channel(self, channel_id: int) -> discord.abc.Messageable: ...

    async def post_minority_report(self, debate: Debate) -> None:
        """Each side's strongest case, grey, in full (over several messages if need be)."""
        for index, batch in enumerate(report_messages(debate, self._strings)):
            await self.send_once(debate, f"poll-report:{index}", embeds=batch)

    async def open_poll(self, debate: Debate) -> None:
        """The native poll with the positions as answers, and a line on how it works."""
        hours = debate.poll.hours if debate.poll is not None else 1
        ends_at = self._clock.now() + timedelta(hours=hours)
        await self.send_once(
            debate,
            "poll",
            content=poll_note(self._strings, hours, ends_at),
            poll=discord_poll(debate, self._strings, hours),
        )

    async def close_poll(self, debate: Debate) -> tuple[int, ...] | None:
        """End the poll if Discord has not yet, and read its votes per answer."""
        found = await self.recorded(debate.id, "poll")
        if found is None:
            return None
        try:
            channel = await self._channel(found[0])
            message = await channel.fetch_message(found[1])
            if message.poll is not None and not message.poll.is_finalised():
                message = await self._ended(channel, message)
        except discord.NotFound:
            log.warning("debate %s: the poll's message (or its thread) is gone", debate.id)
            return None
        if message.poll is None:
            return None
        return tuple(a.vote_count for a in sorted(message.poll.answers, key=lambda a: a.id))

    async def _ended(
        self, channel: discord.abc.Messageable, message: discord.Message
    ) -> discord.Message:
        """The poll ended now (the bot is its author); if Discord ended it meanwhile, the
        message read again."""
        try:
            return await message.end_poll()
        except discord.NotFound:
            raise
        except discord.HTTPException:  # already ended (its time passed a moment ago)
            return await channel.fetch_message(message.id)
