"""Choosing a format on the card, through the real discord.py client: the menu offers the
formats the roster can run with the moderator's suggestion picked and its reason shown; an
outsider is refused privately; a pick is stored and shown; after a restart the menu still
works; the format picked is the one the debate runs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from handlers.core.events import StopRequested
from handlers.core.formats import FORMATS
from handlers.core.model import Actor, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import EDIT, THREADS, chat, click, custom_ids, wait_card
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import as_embed, walk
from tests.fakes.discord_world import Json
from tests.handlers.duo_format import DUO, registered
from tests.handlers.panel_format import PANEL

REASON = "두 안의 장단점을 맞세워 볼 질문입니다 @everyone"


@pytest.fixture(autouse=True)
def more_formats() -> Iterator[None]:
    with registered(DUO, PANEL):
        yield


def menu(message: Json, custom_id: str) -> Json:
    """The message's select menu with this custom_id."""
    found = [item for item in walk(message["components"]) if item.get("custom_id") == custom_id]
    assert len(found) == 1 and found[0]["type"] == 3
    return found[0]


def picked(message: Json, custom_id: str) -> list[str]:
    """The values the menu shows as chosen."""
    return [o["value"] for o in menu(message, custom_id)["options"] if o.get("default")]


async def pick(
    rig: BotRig, message_id: str, custom_id: str, user: Json, value: str
) -> tuple[int, Json]:
    """`user` picks `value` in the menu; the callback type and the response message (if any)."""
    record = await rig.fake.click(message_id, custom_id, user, [value])
    kind = await rig.fake.wait_ack(record)
    response = rig.fake.messages.get(record.response_message_id or "", {})
    assert rig.fake.allowed_mentions.get(response.get("id", "")) in (None, {"parse": []})
    return kind, response


async def test_the_card_offers_the_formats_and_the_pick_is_what_runs(
    rig: BotRig, people: People
) -> None:
    rig.moderator.suggestion = ("duo", REASON)
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    menu_id = f"debate:format:{debate_id}"

    # every registered format two can run, duo among them, not panel (it needs three
    # participants); duo picked, with the reason
    options = {o["value"]: o["label"] for o in menu(card, menu_id)["options"]}
    assert list(options) == [name for name in FORMATS if name != "panel"]
    assert options["free"] == KO("front.format_free")
    assert options["duo"] == "duo"  # registered without a locale label: shown by its name
    assert picked(card, menu_id) == ["duo"]
    field = as_embed(card)["fields"][2]["value"]
    assert field.startswith("duo · ")
    assert KO("front.card_suggested", format="duo", reason=REASON) in field
    assert not rig.fake.world.was_pinged(card["id"])

    # bob was not in the conversation: refused privately, nothing changes
    kind, response = await pick(rig, card["id"], menu_id, people.bob, "free")
    assert kind == 4 and response["flags"] & FLAG_EPHEMERAL
    assert response["content"] == KO("front.refused")
    assert (await rig.handler.get(debate_id)).setup.format == "duo"
    assert picked(rig.fake.messages[card["id"]], menu_id) == ["duo"]

    # carol picks free: stored, and the card shows it (the message is updated in place)
    kind, _ = await pick(rig, card["id"], menu_id, people.carol, "free")
    assert kind == 7
    assert (await rig.handler.get(debate_id)).setup.format == "free"
    shown = rig.fake.messages[card["id"]]
    assert picked(shown, menu_id) == ["free"]
    assert as_embed(shown)["fields"][2]["value"].startswith(KO("front.format_free"))
    assert rig.fake.allowed_mentions[card["id"]] == {"parse": []}

    # restarted while the card waits: the menu still works, and the pick is remembered
    await rig.restart()
    assert (await rig.handler.get(debate_id)).setup.format == "free"
    kind, _ = await pick(rig, card["id"], menu_id, people.alice, "duo")
    assert kind == 7 and picked(rig.fake.messages[card["id"]], menu_id) == ["duo"]

    # alice opens it: the debate runs duo, and the closed card has no menu left
    kind, _ = await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    assert kind == 6
    await rig.fake.wait_for_call("POST", THREADS)
    opened = await rig.handler.get(debate_id)
    assert opened.setup.format == "duo" and opened.phase is not Phase.PROPOSED
    await rig.fake.wait_for_call(
        "PATCH",
        EDIT,
        lambda c: c.path.endswith(f"/messages/{card['id']}") and custom_ids(c.json) == [],
    )
    await rig.handler.submit(
        debate_id, StopRequested(Actor(user_id=int(people.alice["id"]), name="alice"))
    )


async def test_one_format_is_no_choice(rig: BotRig, people: People) -> None:
    with registered():  # free alone: the card names it, no menu
        await rig.start()
        await chat(rig, people)
        card, debate_id = await wait_card(rig)
    ids = custom_ids(card)
    assert f"debate:format:{debate_id}" not in ids
    assert as_embed(card)["fields"][2]["value"].startswith(KO("front.format_free"))
