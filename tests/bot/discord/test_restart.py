"""The bot restarted twice: old buttons still work, the debate resumes, nothing is posted twice."""

from __future__ import annotations

from handlers.core.model import AG, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import (
    THREADS,
    assert_refused,
    chat,
    check_no_pings,
    check_turns,
    click,
    custom_ids,
    keyed,
    posted_twice,
    status_edit,
    wait_card,
)
from tests.fakes.discord_limits import as_embed, visible_text
from tools.store.debates import SqliteStore


async def test_restarts_keep_buttons_state_and_posts(rig: BotRig, people: People) -> None:
    rig.ag.hold.update(range(1, 20))
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)

    # restarted while the card waits: its buttons still work
    await rig.restart()
    await assert_refused(rig, card["id"], f"debate:open:{debate_id}", people.bob)
    kind, _ = await click(rig, card["id"], f"debate:open:{debate_id}", people.carol)
    assert kind == 6
    thread_id = card["id"]
    status = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("라운드 1/3")
    )

    # restarted while AG works on its first turn; AG answers while the bot is down
    ag_turn = await rig.ag.wait_prompt(1)
    await rig.stop()
    await rig.ag.answer(ag_turn)
    rig.ag.hold.difference_update(range(ag_turn + 1))  # AG answers now, up to its next turn
    await rig.start()
    assert rig.services is not None
    db = rig.services.db

    # the debate resumed: AG's reply was read from the thread's history and posted
    next_ag_turn = await rig.ag.wait_prompt(ag_turn + 1)
    stored = await SqliteStore(db).turn(debate_id, ag_turn)
    assert stored.seat == AG and stored.text == rig.ag.reply_for(ag_turn)
    assert (await rig.handler.get(debate_id)).floor.turns == next_ag_turn - 1

    # the Stop button of the status posted before the restart works
    calls = len(rig.fake.calls)
    await assert_refused(rig, status["id"], f"debate:stop:{debate_id}", people.bob)
    kind, _ = await click(rig, status["id"], f"debate:stop:{debate_id}", people.alice)
    assert kind == 6
    final = await status_edit(rig, status["id"], KO("front.outcome_stopped"), start=calls)
    assert custom_ids(final) == []
    assert (await rig.handler.get(debate_id)).phase is Phase.STOPPED
    await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == KO("front.conclusion_title")
        )
    )

    # once each: the thread, the pin, the status, the card, every turn, every relay prompt
    assert len(rig.fake.calls_to("POST", THREADS)) == 1
    assert len(rig.fake.world.pins[thread_id]) == 1
    bot_messages = rig.bot_messages(thread_id)
    statuses = [m["id"] for m in bot_messages if visible_text(m).startswith(("라운드", "종료"))]
    assert statuses == [status["id"]]
    assert len(rig.bot_messages(rig.channel_id)) == 1  # the card
    tag = f"<@{rig.ag.user_id}> [debate {debate_id} · turn {ag_turn}]"
    gone = [m for m in rig.fake.world.deleted.values() if m["channel_id"] == thread_id]
    assert len([m for m in gone if visible_text(m).startswith(tag)]) == 1  # posted once, then
    assert not [m for m in bot_messages if visible_text(m).startswith(tag)]  # cleared once taken
    seats = await check_turns(rig, db, debate_id)
    assert seats[ag_turn] == AG and len(seats) == next_ag_turn - 1
    assert not await posted_twice(rig, db, debate_id, thread_id)
    keys = await keyed(db, debate_id)
    assert keys["thread"] == card["id"] and keys["pinned"] == keys["status"] == status["id"]
    check_no_pings(rig, {thread_id, rig.channel_id}, rig.ag.user_id)
