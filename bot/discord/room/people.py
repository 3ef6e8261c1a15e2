"""What the room asks and tells the people: a pause's buttons (the budget spent, or
converging), the moderator's question with one button per option, and one-line notices."""

from __future__ import annotations

import contextlib

import discord

from bot.discord import embeds, render
from bot.discord.render import CONTENT_LIMIT, nonce_of
from bot.discord.render_split import split_text
from bot.discord.room.records import NO_PINGS, RoomRecords
from bot.discord.views import budget_view, question_view
from bot.formatting import discord_time, notice_params, option_question
from handlers.core.i18n import Strings
from handlers.core.model import Debate, UserQuestion


async def ask_budget(records: RoomRecords, strings: Strings, debate: Debate) -> None:
    """The people's buttons of a pause (once per pause)."""
    await records.send_once(
        debate,
        f"paused:{debate.people.pauses}",
        embed=embeds.budget_embed(debate, strings),
        view=budget_view(debate, strings),
    )


async def ask_user(
    records: RoomRecords, strings: Strings, debate: Debate, question: UserQuestion
) -> None:
    """The moderator's question in amber, with one button per option."""
    # Keyed by its number: a question asked again before any turn is a message of its own.
    key, body = f"question:{debate.question_number}", embeds.question_body(question)
    if len(body) > embeds.QUESTION_LIMIT:
        # Too long for the button message's embed: the whole question first, in full.
        whole = render.text_messages(body, colour=embeds.AMBER)
        for index, batch in enumerate(whole):
            await records.send_once(debate, f"{key}:text:{index}", embeds=batch)
    form = option_question(strings, question.form) if question.form else ""
    await records.send_once(
        debate,
        key,
        embed=embeds.question_embed(question, strings),
        view=question_view(debate, question, form),
    )


async def close_question(records: RoomRecords, debate: Debate, number: int) -> None:
    """The answered question loses its buttons (a late click would be refused anyway)."""
    message = await records.message(debate.id, f"question:{number}")
    if message is not None:
        with contextlib.suppress(discord.NotFound):  # deleted meanwhile: nothing to close
            await message.edit(view=None)


async def notify(
    records: RoomRecords, strings: Strings, debate: Debate, key: str, params: dict[str, str]
) -> None:
    """One localized line, in full (its values as `notice_params` words them)."""
    params = notice_params(strings, params, discord_time)
    text = strings(key, **params)
    channel = await records.thread(debate)
    # The same notice in the same state is the same notice: re-sent after a crash, it is
    # dropped by its nonce.
    state = (
        debate.id,
        debate.phase,
        debate.floor.turns,
        debate.floor.attempt,
        key,
        sorted(params.items()),
    )
    for index, piece in enumerate(split_text(text, CONTENT_LIMIT)):
        await channel.send(piece, allowed_mentions=NO_PINGS, nonce=nonce_of(*state, index))
