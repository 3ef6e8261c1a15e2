"""AG corrects its reply in place: the bot (which keeps no message cache) takes the edit."""

from __future__ import annotations

from handlers.core.model import AG
from tests.bot.discord.conftest import BotRig, People
from tests.bot.discord.support import chat, click, wait_card
from tools.store.debates import SqliteStore


async def test_ag_editing_its_reply_in_place_is_the_reply_taken(
    rig: BotRig, people: People
) -> None:
    rig.ag.hold.update(range(1, 20))  # AG answers by hand below
    bot = await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    start = len(rig.fake.calls)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)

    turn = await rig.ag.wait_prompt(1)
    # the relay has read the thread's history: from here on it hears of AG by events only
    await rig.fake.wait_for_call("GET", "/channels/{channel_id}/messages", start=start)
    draft = await rig.ag.prompts[turn].channel.send("초안: 아직 쓰는 중")
    await draft.edit(content=rig.ag.reply_for(turn))  # the JSON block completes the reply

    await rig.ag.wait_prompt(turn + 1)  # the debate went on past AG's turn (in < 5 s of quiet)
    assert rig.services is not None
    stored = await SqliteStore(rig.services.db).turn(debate_id, turn)
    assert stored.seat == AG and stored.text == rig.ag.reply_for(turn)
    assert not bot.cached_messages  # the draft was never kept: the edit came as a raw event
