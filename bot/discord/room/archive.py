"""A concluded debate's thread tidies itself: ARCHIVE_AFTER_HOURS after the end (a
time stored as the debate's timer, so a restart keeps it) a last message links the Conclusion
and the thread is archived, so it stops counting against the server's active threads."""

from __future__ import annotations

import discord

from bot.discord.room.records import RoomRecords
from handlers.core.i18n import Strings
from handlers.core.model import Debate


class Archive:
    """Archives a concluded thread when its timer (stored by the engine) is due."""

    def __init__(self, records: RoomRecords, strings: Strings) -> None:
        self._records, self._strings = records, strings

    async def archive(self, debate: Debate) -> None:
        """The last message, linking the Conclusion, then the thread archived."""
        found = await self._records.recorded(debate.id, "conclusion")
        url = found[2] if found else ""
        thread = await self._records.thread(debate)
        if not isinstance(thread, discord.Thread):
            return  # the thread was never made: nothing to archive
        text = self._strings.of(debate)("archive.done", url=url)
        await self._records.send_once(debate, "archived", content=text)
        await thread.edit(archived=True)
