"""Two gateway processes at once (a rolling deploy, `docker compose --scale`), each a real
`debate-room run` against the fake Discord, which sends each of them every message and every
click, as Discord sends every session of a bot's shard: a chat becomes one card, the moderator
is asked about it once, and a click on the card is answered once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from tests.e2e.fleet import Fleet
from tests.e2e.harness import World
from tests.e2e.observe import assert_clean_logs
from tests.e2e.seen import button_id
from tests.fakes.discord_limits import as_embed, walk
from tools.store.db import Database

pytestmark = pytest.mark.e2e


@pytest.fixture
async def fleet(world: World, postgres_url: str) -> AsyncIterator[Fleet]:
    started = Fleet(world, postgres_url)
    try:
        yield started
    finally:
        started.stop()


async def phases(url: str) -> list[str]:
    """Every stored debate's phase, in id order."""
    db = await Database.open(url)
    try:
        return [str(row[0]) for row in await db.fetch_all("SELECT phase FROM debates ORDER BY id")]
    finally:
        await db.close()


def detections(world: World) -> int:
    """The moderator's detection requests (the ones asking whether chat is debate-worthy)."""
    return sum("debate_worthy" in json.dumps(r["json"]) for r in world.gemini.generate_requests)


async def test_two_gateways_make_one_card_of_a_chat_and_answer_its_click_once(
    world: World, fleet: Fleet
) -> None:
    await fleet.start_gateway([world.channel_id])
    await fleet.start_another_gateway("g2")
    fleet.start_worker("w1")  # posts the card of whatever proposal is stored
    card = await world.chat()  # both gateways see the three lines and judge at the third

    click = await world.discord.click(card["id"], button_id(card, "decline"), world.alice)
    await world.discord.wait_ack(click, timeout=10)
    await world.wait_for(
        lambda: (
            not [
                c
                for c in walk(world.discord.messages[card["id"]]["components"])
                if "custom_id" in c
            ]
        ),
        "the card closed",
    )
    assert await phases(fleet.url) == ["declined"]  # one proposal stored, and it is put off
    assert detections(world) == 1  # the moderator was asked once, not once per gateway
    cards = [m for m in world.bot_messages(world.channel_id) if as_embed(m)]
    assert [m["id"] for m in cards] == [card["id"]]
    answers = [c for c in world.discord.calls if c.path.startswith(f"/interactions/{click.id}/")]
    assert [c.status for c in answers] == [200]  # one gateway answered it, the other kept still
    assert_clean_logs(world)
