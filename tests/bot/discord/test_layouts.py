"""The card, the pinned status and the closing summary are Discord layouts (components v2),
through the real discord.py client against the fake Discord: a container in the card's colour,
Stop beside the status line, and messages posted before the layouts (an embed card, a text
status) still answer their buttons and become layouts in place."""

from __future__ import annotations

import asyncio

from bot.discord.embeds import GREY
from handlers.core.model import Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import EDIT, chat, click, custom_ids, wait_card
from tests.fakes.discord_limits import (
    FLAG_IS_COMPONENTS_V2,
    as_embed,
    visible_text,
)
from tests.fakes.discord_world import Json

CONTAINER, SECTION, ACTION_ROW = 17, 9, 1


def is_layout(message: Json) -> bool:
    """Sent with IS_COMPONENTS_V2, and nothing in the legacy fields."""
    flagged = bool(int(message.get("flags") or 0) & FLAG_IS_COMPONENTS_V2)
    return flagged and not message.get("content") and not message.get("embeds")


async def status_of(rig: BotRig, thread_id: str) -> Json:
    """The thread's status message (its line starts with the round)."""
    return await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("라운드")
    )


async def test_the_card_the_status_and_the_closing_summary_are_layouts(
    rig: BotRig, people: People
) -> None:
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    assert is_layout(card)
    [box] = card["components"]
    assert (box["type"], box["accent_color"]) == (CONTAINER, GREY.value)
    assert as_embed(card)["title"] == KO("front.card_title")
    bottom = box["components"][-1]  # Open / Not now under what they answer
    assert bottom["type"] == ACTION_ROW
    assert [b["custom_id"] for b in bottom["components"]] == [
        f"debate:open:{debate_id}",
        f"debate:decline:{debate_id}",
    ]
    kind, _ = await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    assert kind == 6
    thread_id = card["id"]
    status = await status_of(rig, thread_id)
    assert is_layout(status)
    section = status["components"][0]  # the line, and Stop beside it
    assert section["type"] == SECTION
    assert section["accessory"]["custom_id"] == f"debate:stop:{debate_id}"
    assert visible_text(status).startswith("라운드 1/3")
    closed = rig.fake.messages[card["id"]]  # the card says who opened it, its controls gone
    assert is_layout(closed) and custom_ids(closed) == []

    kind, _ = await click(rig, status["id"], f"debate:stop:{debate_id}", people.carol)
    assert kind == 6  # the section's accessory reached the Stop button's callback
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)
    assert (await rig.handler.get(debate_id)).phase is Phase.STOPPED
    final = rig.fake.messages[status["id"]]
    assert is_layout(final) and custom_ids(final) == []
    assert visible_text(final).startswith("종료")
    closing = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and as_embed(m).get("title") == KO("front.conclusion_title")
        ),
        timeout=30,
    )
    assert is_layout(closing) and closing["components"][0]["type"] == CONTAINER
    assert as_embed(closing)["footer"]["text"].startswith(KO("credit.per_seat", seats="")[:4])


async def test_a_status_posted_as_text_before_the_layouts_becomes_one_in_place(
    rig: BotRig, people: People
) -> None:
    """The old status keeps its place and its pin: its first edit clears the text and sends
    the layout (Discord converts a message so; the fake refuses a layout with content)."""
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    status = await status_of(rig, card["id"])
    stop = f"debate:stop:{debate_id}"
    old = rig.fake.messages[status["id"]]  # as the bot posted it before the upgrade
    old.update(
        content="라운드 1/3 · (old)",
        flags=0,
        components=[
            {"type": 1, "id": 1, "components": [{"type": 2, "style": 4, "custom_id": stop}]}
        ],
    )
    calls = len(rig.fake.calls)
    kind, _ = await click(rig, status["id"], stop, people.carol)  # an old button still works
    assert kind == 6
    edit = await rig.fake.wait_for_call(
        "PATCH", EDIT, lambda c: c.path.endswith(f"/messages/{status['id']}"), start=calls
    )
    assert edit.json["content"] is None and edit.json["flags"] & FLAG_IS_COMPONENTS_V2
    converted = rig.fake.messages[status["id"]]
    assert is_layout(converted) and visible_text(converted).startswith("종료")
    assert status["id"] in [m for m, _ in rig.fake.world.pins[card["id"]]]  # still pinned


async def test_a_card_posted_as_an_embed_before_the_layouts_still_opens_and_converts(
    rig: BotRig, people: People
) -> None:
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    opening = f"debate:open:{debate_id}"
    old = rig.fake.messages[card["id"]]
    old.update(
        embeds=[{"title": KO("front.card_title"), "color": GREY.value}],
        flags=0,
        components=[
            {"type": 1, "id": 1, "components": [{"type": 2, "style": 3, "custom_id": opening}]}
        ],
    )
    kind, _ = await click(rig, card["id"], opening, people.alice)
    assert kind == 6
    await status_of(rig, card["id"])  # opened: the thread and its status exist
    await rig.fake.wait_for_call(
        "PATCH",
        EDIT,
        lambda c: c.path.endswith(f"/messages/{card['id']}") and c.json.get("embeds") == [],
    )
    closed = rig.fake.messages[card["id"]]
    assert is_layout(closed) and custom_ids(closed) == []
    assert KO("front.card_speaking", user=f"<@{people.alice['id']}>") in visible_text(closed)
