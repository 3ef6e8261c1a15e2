"""The budget the people set, through the real discord.py client: a round menu on the card
with each budget's estimate; at the budget the debate pauses with Extend by one round /
Conclude now (authorized people only); after a restart the pause's buttons still work and
nothing is posted twice."""

from __future__ import annotations

from bot.discord.embeds import AMBER
from handlers.core.model import Outcome, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import (
    THREADS,
    assert_refused,
    chat,
    click,
    custom_ids,
    posted_twice,
    wait_card,
)
from tests.bot.discord.test_format_choice import menu, pick, picked
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.discord_world import Json


async def _pause(rig: BotRig, thread_id: str, rounds: int) -> Json:
    """The pause message of budget `rounds` in the thread."""
    return await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == KO("budget.title")
            and as_embed(m).get("description") == KO("budget.body", rounds=rounds)
        )
    )


async def test_budget_menu_pause_extend_restart_and_conclude(rig: BotRig, people: People) -> None:
    rig.overrides["BUDGET_PAUSE"] = True
    await rig.start()
    assert rig.services is not None
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    menu_id = f"debate:budget:{debate_id}"

    # the configured budget (MAX_ROUNDS=3) is picked; each budget says what it costs
    options = {o["value"]: o["label"] for o in menu(card, menu_id)["options"]}
    assert picked(card, menu_id) == ["3"]
    # free: two turns a round, a judgement a turn plus detection and the Conclusion
    assert options["1"] == KO("budget.option", rounds=1, low=4, high=8, requests=4)
    assert options["3"] == KO("budget.option", rounds=3, low=12, high=24, requests=8)

    kind, response = await pick(rig, card["id"], menu_id, people.bob, "1")
    assert kind == 4 and response["flags"] & FLAG_EPHEMERAL
    assert (await rig.handler.get(debate_id)).setup.max_rounds == 3
    kind, _ = await pick(rig, card["id"], menu_id, people.carol, "1")
    assert kind == 7 and (await rig.handler.get(debate_id)).setup.max_rounds == 1
    shown = rig.fake.messages[card["id"]]
    assert (
        picked(shown, menu_id) == ["1"] and "최대 1라운드" in as_embed(shown)["fields"][2]["value"]
    )

    # one round, then the pause: amber, with Extend / Conclude
    kind, _ = await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    assert kind == 6
    await rig.fake.wait_for_call("POST", THREADS)
    thread_id = card["id"]
    first = await _pause(rig, thread_id, 1)
    assert as_embed(first)["color"] == AMBER.value
    # the first pause (after turn 2): Declare consensus / Extend / Conclude, each naming it
    extend_1 = f"debate:extend:{debate_id}:1"
    assert custom_ids(first) == [
        f"debate:consensus:{debate_id}:1",
        extend_1,
        f"debate:conclude:{debate_id}:1",
    ]
    paused = await rig.handler.get(debate_id)
    assert paused.people.paused and paused.phase is Phase.AWAITING_USER and paused.floor.turns == 2
    await assert_refused(rig, first["id"], extend_1, people.bob)

    # restarted while paused: the buttons posted before still work, nothing is re-posted
    await rig.restart()
    kind, _ = await click(rig, first["id"], extend_1, people.alice)
    assert kind == 6
    await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and visible_text(m) == KO("budget.extended", user="alice", rounds=2)
        )
    )
    second = await _pause(rig, thread_id, 2)
    assert second["id"] != first["id"] and (await rig.handler.get(debate_id)).floor.turns == 4

    # a stale Extend on the first pause changes nothing; carol concludes at the second
    kind, _ = await click(rig, first["id"], extend_1, people.carol)
    assert kind == 6  # acknowledged; the private "not now" follows
    await rig.fake.wait_for_message(
        lambda m: visible_text(m) == KO("front.not_now") and bool(m["flags"] & FLAG_EPHEMERAL)
    )
    assert (await rig.handler.get(debate_id)).setup.max_rounds == 2  # not extended again
    kind, _ = await click(rig, second["id"], f"debate:conclude:{debate_id}:2", people.carol)
    assert kind == 6
    await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id and visible_text(m) == KO("budget.concluded", user="carol")
        )
    )
    assert rig.services is not None
    await rig.handler.wait_idle(debate_id)
    ended = await rig.handler.get(debate_id)
    assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.MAX_ROUNDS
    assert not await posted_twice(rig, rig.services.db, debate_id, thread_id)
