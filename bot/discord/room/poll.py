"""The people's poll in the Discord room: the minority report, the
native poll, reading it once it ends (the message is fetched anew: after a restart
discord.py's cache is gone, and a fetched message carries the final counts), and the people's
decision on the closing summary. Every post is recorded under its key, so a repeat after a
restart posts nothing twice."""

from __future__ import annotations

import logging
from datetime import timedelta

import discord

from bot.discord import render
from bot.discord.embeds import GREY
from bot.discord.room.records import RoomRecords
from handlers.core.i18n import Strings
from handlers.core.model import Debate
from handlers.core.poll.minority import decision_text, report_markdown
from handlers.core.poll.state import QUESTION_CHARS, PollStage
from handlers.core.shorten import shorten
from handlers.ports import Clock

log = logging.getLogger(__name__)

FIELD_LIMIT = 1024


def report_messages(debate: Debate, strings: Strings) -> list[list[discord.Embed]]:
    """The minority report in full, grey, split over embeds and messages as needed."""
    poll = debate.poll
    if poll is None or poll.report is None:
        return []
    body = report_markdown(debate, poll.report, strings)
    return render.text_messages(f"**{strings('poll.report_title')}**\n\n{body}", colour=GREY)


def discord_poll(debate: Debate, strings: Strings, hours: int) -> discord.Poll:
    """The native poll: the positions as answers (each at most 55 characters, cut with `…`)."""
    question = shorten(strings("poll.question", topic=debate.proposal.topic), QUESTION_CHARS)
    poll = discord.Poll(question=question, duration=timedelta(hours=hours))
    for answer in debate.poll.answers if debate.poll else ():
        poll.add_answer(text=answer)
    return poll


def people_decision(debate: Debate, strings: Strings) -> str:
    """The people's decision, first on the closing summary (when a poll decided the end)."""
    poll = debate.poll
    if poll is None or poll.stage is not PollStage.CLOSED:
        return ""
    return shorten(decision_text(poll, strings), FIELD_LIMIT)


class Poll:
    """Posts the report and the poll once; ends the poll and reads its votes."""

    def __init__(self, records: RoomRecords, strings: Strings, clock: Clock) -> None:
        self._records, self._strings, self._clock = records, strings, clock

    async def report(self, debate: Debate) -> None:
        """Each side's strongest case, grey, in full (over several messages if need be)."""
        for index, batch in enumerate(report_messages(debate, self._strings.of(debate))):
            await self._records.send_once(debate, f"poll-report:{index}", embeds=batch)

    async def open(self, debate: Debate) -> None:
        """The native poll with the positions as answers, and a line on how it works."""
        hours = debate.poll.hours if debate.poll is not None else 1
        ends_at, strings = self._clock.now() + timedelta(hours=hours), self._strings.of(debate)
        ends = f"<t:{int(ends_at.timestamp())}:R>"  # when it closes, as Discord shows it
        await self._records.send_once(
            debate,
            "poll",
            content=strings("poll.how", hours=hours, ends=ends),
            poll=discord_poll(debate, strings, hours),
        )

    async def votes(self, debate: Debate) -> tuple[int, ...] | None:
        """End the poll if Discord has not yet, and read its votes per answer."""
        found = await self._records.recorded(debate.id, "poll")
        if found is None:
            return None
        await self._records.guard.confirm(debate.id)  # ending it is a write: see RoomRecords
        try:
            channel = await self._records.channel(found[0])
            message = await channel.fetch_message(found[1])
            if message.poll is not None and not message.poll.is_finalised():
                message = await _ended(channel, message)
        except discord.NotFound:
            log.warning("debate %s: the poll's message (or its thread) is gone", debate.id)
            return None
        if message.poll is None:
            return None
        return tuple(a.vote_count for a in sorted(message.poll.answers, key=lambda a: a.id))


async def _ended(channel: discord.abc.Messageable, message: discord.Message) -> discord.Message:
    """End the poll now; if Discord ended it meanwhile, the message read again."""
    try:
        return await message.end_poll()
    except discord.NotFound:
        raise
    except discord.HTTPException:  # already ended (its time passed a moment ago)
        return await channel.fetch_message(message.id)
