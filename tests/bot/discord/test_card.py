"""The card's other endings: expiry (a moved clock, no waiting) and Not now by an approver."""

from __future__ import annotations

from datetime import timedelta

from handlers.core.model import Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import EDIT, THREADS, chat, click, custom_ids, wait_card
from tests.fakes.discord_limits import as_embed


async def test_an_unanswered_card_expires_and_says_so(rig: BotRig, people: People) -> None:
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    assert await rig.handler.expire_due() == []  # not yet: the TTL is 30 minutes

    rig.clock.offset = timedelta(minutes=31)
    assert rig.services is not None
    assert rig.services.timers is not None  # the timer driver: woken here, not at 30 min
    rig.services.timers.nudge()
    edit = await rig.fake.wait_for_call(
        "PATCH", EDIT, lambda c: c.path.endswith(f"/messages/{card['id']}")
    )
    assert custom_ids(edit.json) == []
    assert as_embed(edit.json)["description"] == KO("front.card_expired")
    assert (await rig.handler.get(debate_id)).phase is Phase.EXPIRED
    assert await rig.handler.expire_due() == []  # once


async def test_an_approver_outside_the_conversation_may_put_it_off(
    rig: BotRig, people: People
) -> None:
    role = rig.fake.world.add_role("approver")
    dana = rig.fake.add_user("dana", roles=[role["id"]])
    rig.overrides["APPROVER_ROLE_ID"] = role["id"]
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)

    kind, _ = await click(rig, card["id"], f"debate:decline:{debate_id}", dana)
    assert kind == 6
    edit = await rig.fake.wait_for_call(
        "PATCH", EDIT, lambda c: c.path.endswith(f"/messages/{card['id']}")
    )
    assert custom_ids(edit.json) == []
    assert as_embed(edit.json)["description"] == KO("front.card_declined", user=f"<@{dana['id']}>")
    assert (await rig.handler.get(debate_id)).phase is Phase.DECLINED
    assert not rig.fake.calls_to("POST", THREADS)
