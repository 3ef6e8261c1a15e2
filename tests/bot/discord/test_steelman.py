"""Steelman, through the real discord.py client against the fake Discord: a person of the thread
presses it while AG answers turn 1; each side's next turn must restate the other side's
strongest case first (its brief says so: Claude's is read here, AG's relayed brief in
tests/handlers/core/test_steelman.py), and each such turn is shown as a steelman in the thread
and in the Round-Log. AG's running turn keeps the brief it was given; someone outside the
conversation is refused."""

from __future__ import annotations

import asyncio

from handlers.core.model import AG, CLAUDE, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import assert_refused, chat, click, custom_ids, wait_card
from tests.fakes.discord_limits import visible_text


async def test_steelman_makes_each_side_s_next_turn_restate_the_other_first(
    rig: BotRig, people: People
) -> None:
    rig.ag.hold.add(1)  # AG's first turn waits while carol presses Steelman
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    thread_id = card["id"]
    status = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("라운드 1/3")
    )
    steelman = f"debate:steelman:{debate_id}"
    assert steelman in custom_ids(status)
    await rig.ag.wait_prompt(1)

    await assert_refused(rig, status["id"], steelman, people.bob)
    assert (await rig.handler.get(debate_id)).steelman.due == ()  # nothing changed
    kind, _ = await click(rig, status["id"], steelman, people.carol)
    assert kind == 6  # acknowledged; the thread tells the rest
    said = KO("steelman.requested", user="carol")
    await rig.ag.answer(1)  # AG's turn 1 was asked before: not a steelman
    await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m) == said
    )
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)
    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.CONCLUDED

    instruction = "스틸맨 (carol님의 요청)"
    claude_turns = {r.turn: r.prompt for r in rig.claude.requests}
    assert instruction in claude_turns[2]  # Claude's next turn after the press
    assert all(instruction not in p for t, p in claude_turns.items() if t != 2)  # once only
    ag_next = min(t for t in rig.ag.prompts if t > 1)  # AG's turn 1 was running already
    assert debate.steelman.turns == (2, ag_next) and debate.steelman.due == ()

    shown = [
        visible_text(m) for m in rig.fake.messages_in(thread_id) if visible_text(m).startswith("🛡")
    ]
    assert shown == [
        said,
        KO("steelman.turn", turn=2, seat=debate.name_of(CLAUDE)),
        KO("steelman.turn", turn=ag_next, seat=debate.name_of(AG)),
    ]
    log = "".join(p.read_text() for p in (rig.tmp / "wiki").rglob("*round-log*"))
    assert KO("wiki.round_log.steelman", who="carol") in log
    assert KO("wiki.round_log.steelman_turn", who=debate.name_of(CLAUDE)) in log
