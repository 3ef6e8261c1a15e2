"""Honest concessions through the real discord.py client: Claude moves toward AG twice, once
quoting AG's reply word for word (no flag) and once with a quote AG never wrote (flagged in
the thread, pinging nobody)."""

from __future__ import annotations

import asyncio
import json
import unicodedata

from handlers.core.model import Stance
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.doubles import block
from tests.bot.discord.support import THREADS, chat, click, wait_card
from tests.fakes.discord_limits import visible_text

AG_SAYS = "LRU부터 시작합시다"  # in every AG reply (AgPlayer.reply_for)


def conceding(stance: str, quote: str) -> str:
    body = {"opinion": "생각이 바뀌었습니다.", "stance": stance, "convinced_by": quote}
    return f"Intro.\n\n```json\n{json.dumps(body, ensure_ascii=False)}\n```"


async def test_concession_quoted_passes_and_unquoted_is_flagged(
    rig: BotRig, people: People
) -> None:
    rig.claude.enqueue(
        conceding("disagree", ""),
        conceding("partial", f"@everyone {AG_SAYS}."),  # real: in every AG reply
        conceding("agree", "Redis 비용이 더 싸다는 점 @everyone"),  # AG never wrote it
    )
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    thread_id = card["id"]

    flag = KO("concession.unquoted", seat="Claude")
    notice = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m) == flag, timeout=10
    )
    assert not rig.fake.world.was_pinged(notice["id"])
    await rig.handler.wait_idle(debate_id)
    debate = await rig.handler.get(debate_id)
    claude_turns = [n for n, who in debate.floor.log if who == "claude"]
    assert [seat for _, seat in debate.floor.unquoted] == ["claude"]  # the made-up quote only
    assert debate.floor.unquoted[0][0] == claude_turns[2]
    flags = [m for m in rig.bot_messages(thread_id) if visible_text(m) == flag]
    assert len(flags) == 1


AG_PROSE = "LRU부터 시작합시다: it's the cheapest way to learn the hit rate first."


def retyped(quote: str) -> str:
    """`quote` as a person or a model copies it: decomposed Hangul, a zero-width space, a
    typographic apostrophe."""
    decomposed = unicodedata.normalize("NFD", quote.replace("'", "\u2019"))
    return decomposed[:4] + "\u200b" + decomposed[4:]


async def test_concession_quotes_are_matched_on_prose_however_copied(
    rig: BotRig, people: People
) -> None:
    """A quote of the other side's JSON syntax is no quote; a real one that differs only in
    Unicode form, a zero-width space or an apostrophe is."""
    rig.ag.reply_for = lambda turn: block(AG_PROSE, "disagree")  # type: ignore[method-assign]  # AG's answer, scripted
    rig.claude.enqueue(
        conceding("disagree", ""),
        conceding("partial", '"stance": "disagree"'),  # in AG's raw reply, not its prose
        conceding("agree", retyped(AG_PROSE)),
    )
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)

    debate = await rig.handler.get(debate_id)
    claude_turns = [n for n, who in debate.floor.log if who == "claude"]
    assert len(claude_turns) == 3 and debate.stance_of("claude") is Stance.AGREE
    assert debate.floor.unquoted == ((claude_turns[1], "claude"),)  # the JSON "quote" only
    flag = KO("concession.unquoted", seat="Claude")
    assert [visible_text(m) for m in rig.bot_messages(card["id"])].count(flag) == 1
