"""Anonymous peers on the card, through the real discord.py client: ANONYMOUS_PEERS
picks the option, the card says when it is on, and the people may turn it off (a menu; on the
ledger's card, whose menu rows its own questions fill, a button that steps to the next choice)."""

from __future__ import annotations

from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import chat, click, wait_card
from tests.bot.discord.test_card_options import ids
from tests.bot.discord.test_format_choice import pick, picked
from tests.fakes.discord_limits import as_embed
from tests.fakes.discord_world import Json


def roster(message: Json) -> str:
    """The card's participants field."""
    return str(as_embed(message)["fields"][3]["value"])


async def test_anonymous_peers_on_the_card_said_and_turned_off(rig: BotRig, people: People) -> None:
    rig.overrides.update(ANONYMOUS_PEERS=True)
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    anonymous = f"debate:option.anonymous:{debate_id}"
    assert picked(card, anonymous) == ["on"]
    assert KO("front.card_anonymous") in roster(card)

    kind, _ = await pick(rig, card["id"], anonymous, people.alice, "off")
    shown = rig.fake.messages[card["id"]]
    assert kind == 7 and picked(shown, anonymous) == ["off"]
    assert KO("front.card_anonymous") not in roster(shown)
    assert (await rig.handler.get(debate_id)).option("anonymous") == "off"


async def test_anonymous_peers_on_the_ledger_card_is_a_button(rig: BotRig, people: People) -> None:
    rig.overrides.update(ANONYMOUS_PEERS=True, DEFAULT_FORMAT="ledger")
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    assert f"debate:option.anonymous:{debate_id}" not in ids(card)  # no row left for a menu
    button = f"debate:option:{debate_id}:anonymous:off"  # it is on: the button turns it off
    assert button in ids(card) and KO("front.card_anonymous") in roster(card)

    kind, refused = await click(rig, card["id"], button, people.bob)  # not in the conversation
    assert refused["content"] == KO("front.refused")
    assert (await rig.handler.get(debate_id)).option("anonymous") == "on"

    kind, _ = await click(rig, card["id"], button, people.alice)
    shown = rig.fake.messages[card["id"]]
    assert kind == 7 and f"debate:option:{debate_id}:anonymous:on" in ids(shown)
    assert KO("front.card_anonymous") not in roster(shown)
    assert (await rig.handler.get(debate_id)).option("anonymous") == "off"
