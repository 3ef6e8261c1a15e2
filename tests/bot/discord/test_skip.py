"""Skip this turn, through the real discord.py client against the fake Discord: a person of the
thread presses it while AG is answering; the ask is ended as Stop ends it, the thread says whose
turn was skipped, and the debate goes on to its end (someone outside is refused)."""

from __future__ import annotations

import asyncio
import copy

from handlers.core.model import AG, CLAUDE, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import assert_refused, chat, click, custom_ids, wait_card
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import visible_text


async def test_skip_ends_the_running_turn_and_the_debate_goes_on(
    rig: BotRig, people: People
) -> None:
    rig.ag.hold.add(1)  # AG's first turn: silent, until someone skips it
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    thread_id = card["id"]
    status = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("라운드 1/3")
    )
    skip = f"debate:skip:{debate_id}:1:{AG}"  # the button names AG's turn 1
    assert custom_ids(status) == [f"debate:stop:{debate_id}", skip, f"debate:steelman:{debate_id}"]
    await rig.ag.wait_prompt(1)
    asked = await rig.handler.get(debate_id)
    assert (asked.phase, asked.floor.speaker, asked.floor.turns) == (Phase.SPEAKING, AG, 0)

    await assert_refused(rig, status["id"], skip, people.bob)
    assert (await rig.handler.get(debate_id)).floor.speaker == AG  # nothing changed
    as_shown = copy.deepcopy(status)  # the status as a client that missed its edits shows it
    kind, _ = await click(rig, status["id"], skip, people.carol)
    assert kind == 6  # acknowledged; the thread tells the rest
    said = KO("debate.skipped_by", user="carol", seat=asked.name_of(AG))
    await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m) == said
    )
    # a second press of the same button (alice's client still shows it) skips nothing more:
    # it names AG's turn 1, and Claude's turn 2 is answered
    kind, _ = await click(rig, status["id"], skip, people.alice, shown=as_shown)
    assert kind == 6
    await rig.fake.wait_for_message(
        lambda m: visible_text(m) == KO("front.not_now") and bool(m["flags"] & FLAG_EPHEMERAL)
    )
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)

    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.CONCLUDED  # went on to the round limit
    # The next debater's turn (2: a skipped ask's number is not given out again): not skipped
    assert debate.floor.log[0] == (2, CLAUDE)
    assert AG in [seat for _, seat in debate.floor.log]  # AG spoke again in later rounds
    assert debate.floor.skipped == 0  # a skip by the people is not a failure
    assert custom_ids(rig.fake.messages[status["id"]]) == []  # ended: no buttons left
    skipped = [m for m in rig.fake.messages_in(thread_id) if visible_text(m).startswith("⏭")]
    assert [visible_text(m) for m in skipped] == [said]  # one skip, one notice
