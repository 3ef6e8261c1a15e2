"""A format's setup questions on the card, through the real discord.py client: the ledger's
end-state and stance menus appear only while the ledger is the card's format, preselected with
the configured defaults; an outsider is refused privately; a pick is stored, survives a
restart, and is what the debate runs with (its options, the debaters' briefs)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from handlers.core.events import OptionChosen, StopRequested
from handlers.core.model import Actor
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import THREADS, chat, click, custom_ids, wait_card
from tests.bot.discord.test_format_choice import menu, pick, picked
from tests.bot.discord.test_ledger_flow import claude_turn
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed
from tests.fakes.discord_world import Json

PROMPTS = Path(__file__).parents[3] / "prompts"
INQUIRY, FOR, AGAINST = (
    (PROMPTS / f"ledger/stance_{name}.ko.md").read_text(encoding="utf-8").strip()
    for name in ("inquiry", "for", "against")
)


def ids(message: Json) -> list[str]:
    """Every component's custom_id on the message."""
    return custom_ids(message)


async def test_the_ledger_options_are_asked_on_the_card_and_run(
    rig: BotRig, people: People
) -> None:
    rig.overrides.update({"DEFAULT_FORMAT": "ledger", "LEDGER_END_STATE": "converge"})
    asked = asyncio.Event()

    async def first_turn() -> str:
        asked.set()
        return claude_turn(1)

    rig.claude.enqueue(first_turn)
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    end, stance = (
        f"debate:option.ledger.end:{debate_id}",
        f"debate:option.ledger.stance:{debate_id}",
    )
    assert picked(card, end) == ["converge"] and picked(card, stance) == ["assigned"]
    assert not [i for i in ids(card) if i.startswith("debate:form.")]  # no other format's form
    labels = {o["value"]: o["label"] for o in menu(card, stance)["options"]}
    question, answer = KO("front.option_ledger_stance"), KO("front.option_ledger_stance_neutral")
    assert labels["neutral"] == f"{question}: {answer}"

    # bob was not in the conversation: refused privately, nothing changes
    kind, response = await pick(rig, card["id"], stance, people.bob, "neutral")
    assert kind == 4 and response["flags"] & FLAG_EPHEMERAL
    assert response["content"] == KO("front.refused")
    assert (await rig.handler.get(debate_id)).option("ledger.stance") == "assigned"

    # carol: a neutral inquiry; alice: open exploration; the card shows both
    kind, _ = await pick(rig, card["id"], stance, people.carol, "neutral")
    assert kind == 7
    kind, _ = await pick(rig, card["id"], end, people.alice, "open")
    assert kind == 7
    shown = rig.fake.messages[card["id"]]
    assert picked(shown, stance) == ["neutral"] and picked(shown, end) == ["open"]
    roster = as_embed(shown)["fields"][3]["value"]
    assert KO("ledger.standpoint_inquiry") in roster and KO("ledger.end_open") in roster
    assert KO("ledger.standpoint_for") not in roster
    assert rig.fake.allowed_mentions[card["id"]] == {"parse": []}

    # a value the format does not offer changes nothing (Discord offers only the menu's)
    alice = Actor(user_id=int(people.alice["id"]), name="alice")
    after = (
        await rig.handler.submit(debate_id, OptionChosen(alice, "ledger.stance", "hostile"))
    ).debate
    assert after.option("ledger.stance") == "neutral"

    # restarted while the card waits: the choices are remembered, the menus still work
    await rig.restart()
    kind, _ = await pick(rig, card["id"], end, people.alice, "open")
    assert kind == 7 and picked(rig.fake.messages[card["id"]], stance) == ["neutral"]

    # opened: the debate runs with them, and the debaters are briefed as neutral inquirers
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    opened = await rig.handler.get(debate_id)
    assert opened.option("ledger.stance") == "neutral" and opened.option("ledger.end") == "open"
    await asyncio.wait_for(asked.wait(), 30)
    brief = rig.claude.requests[0].prompt
    assert INQUIRY in brief and FOR not in brief and AGAINST not in brief
    await rig.handler.submit(debate_id, StopRequested(alice))


async def test_the_options_show_only_for_their_format(rig: BotRig, people: People) -> None:
    await rig.start()  # DEFAULT_FORMAT free: no setup questions
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    stance = f"debate:option.ledger.stance:{debate_id}"
    assert not [i for i in ids(card) if i.startswith("debate:option.ledger")]
    kind, _ = await pick(rig, card["id"], f"debate:format:{debate_id}", people.alice, "ledger")
    assert kind == 7
    assert picked(rig.fake.messages[card["id"]], stance) == ["assigned"]
    # back to free: the menus go, and a ledger option is not the free format's to set
    await pick(rig, card["id"], f"debate:format:{debate_id}", people.alice, "free")
    assert stance not in ids(rig.fake.messages[card["id"]])
    alice = Actor(user_id=int(people.alice["id"]), name="alice")
    after = (
        await rig.handler.submit(debate_id, OptionChosen(alice, "ledger.stance", "neutral"))
    ).debate
    assert after.option("ledger.stance") == "assigned"
