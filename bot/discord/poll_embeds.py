"""What the people's poll shows in Discord (issue 18, feature 2): the minority report, the
poll's question and note, and the people's decision on the closing embed."""

from __future__ import annotations

from datetime import datetime, timedelta

import discord

from bot.discord import render
from bot.discord.embeds import AMBER, GREY
from handlers.core.i18n import Strings
from handlers.core.minority import decision_text, report_markdown
from handlers.core.model import Debate
from handlers.core.poll_data import QUESTION_CHARS, PollStage
from handlers.core.shorten import shorten

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


def poll_note(strings: Strings, hours: int, ends_at: datetime) -> str:
    """The line above the poll: how it works, and when it closes (a Discord timestamp)."""
    return strings("poll.how", hours=hours, ends=f"<t:{int(ends_at.timestamp())}:R>")


def with_decision(embed: discord.Embed, debate: Debate, strings: Strings) -> discord.Embed:
    """The closing embed with the people's decision first (when a poll decided the end)."""
    poll = debate.poll
    if poll is None or poll.stage is not PollStage.CLOSED:
        return embed
    text = shorten(decision_text(poll, strings), FIELD_LIMIT)
    embed.insert_field_at(0, name=strings("poll.decision_title"), value=text, inline=False)
    embed.colour = AMBER  # the people decided
    return embed
