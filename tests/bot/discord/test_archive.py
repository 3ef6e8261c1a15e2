"""A concluded thread archives itself: ARCHIVE_AFTER_HOURS after the end, through
the real discord.py client against the fake Discord, with the timer kept across a restart."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import chat, click, wait_card
from tests.fakes.discord_limits import as_embed, visible_text

CHANNEL = "/channels/{channel_id}"


async def _stopped_after_one_ask(rig: BotRig, people: People) -> tuple[int, str, dict[str, Any]]:
    """Start, open the card, stop while AG is asked; the debate, its thread and the Conclusion
    message, once the export is attached (the end is posted whole)."""
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.carol)
    thread_id = card["id"]
    status = await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith("라운드 1/3")
    )
    await rig.ag.wait_prompt(1)
    await click(rig, status["id"], f"debate:stop:{debate_id}", people.alice)
    conclusion = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == KO("front.conclusion_title")
        )
    )
    await rig.fake.wait_for_message(
        lambda m: m["channel_id"] == thread_id and visible_text(m).startswith(KO("export.attached"))
    )
    return debate_id, thread_id, conclusion


async def test_archive_after_the_grace_period_even_across_a_restart(
    rig: BotRig, people: People
) -> None:
    rig.overrides["ARCHIVE_AFTER_HOURS"] = 2
    rig.ag.hold.update(range(1, 20))  # AG never answers: the debate is stopped
    _, thread_id, conclusion = await _stopped_after_one_ask(rig, people)
    assert await rig.handler.fire_due_timers() == []  # not yet: the grace period runs
    assert not rig.fake.calls_to("PATCH", CHANNEL)

    await rig.stop()  # down past the grace period: the stored timer is kept
    rig.clock.advance(2 * 3600 + 1)
    await rig.start()  # the start fires the timers that fell due meanwhile
    patched = await rig.fake.wait_for_call("PATCH", CHANNEL, lambda c: c.path.endswith(thread_id))
    assert patched.json == {"archived": True} and patched.status == 200
    assert rig.fake.world.channels[thread_id]["thread_metadata"]["archived"] is True
    url = f"https://discord.com/channels/{rig.fake.text_channel['guild_id']}/{thread_id}/{conclusion['id']}"
    last = rig.bot_messages(thread_id)[-1]
    assert last["content"] == KO("archive.done", url=url)  # it links the Conclusion
    assert await rig.handler.fire_due_timers() == []  # archived once
    assert len(rig.fake.calls_to("PATCH", CHANNEL)) == 1


@pytest.mark.parametrize("restart", [False, True])
async def test_archive_in_a_process_sharing_the_debates_by_the_holder_of_the_lease(
    rig: BotRig, people: People, restart: bool
) -> None:
    """Sharing the debates (leases, the inbox): the ended debate is given up; once its stored
    timer is due, the process that claims it fires it (its writes fenced by that lease), as
    the same process or, down past the grace period, the one started after it."""
    rig.owner = "w1"
    rig.overrides |= {"ARCHIVE_AFTER_HOURS": 2, "WORKER_POLL_SECONDS": 0.05}
    rig.ag.hold.update(range(1, 20))
    debate_id, thread_id, conclusion = await _stopped_after_one_ask(rig, people)
    await rig.handler.wait_idle(debate_id)
    assert rig.services is not None
    timer = await rig.services.db.fetch_one(
        "SELECT closed_at FROM polls WHERE debate_id = ?", (debate_id,)
    )
    assert timer is not None and timer[0] is None  # stored through the fenced store
    services = rig.services
    assert services.wiki is not None and services.runner is not None and services.leases
    await services.wiki.drained(debate_id)
    await services.runner.tick()
    assert services.leases.held() == []  # ended, nothing queued: given up
    if restart:
        await rig.stop()
        rig.owner = "w2"
    rig.clock.advance(2 * 3600 + 1)
    if restart:
        await rig.start()
    patched = await rig.fake.wait_for_call("PATCH", CHANNEL, lambda c: c.path.endswith(thread_id))
    assert patched.json == {"archived": True}
    url = f"https://discord.com/channels/{rig.fake.text_channel['guild_id']}/{thread_id}/{conclusion['id']}"
    assert rig.bot_messages(thread_id)[-1]["content"] == KO("archive.done", url=url)
    assert rig.services is not None
    claims = await rig.services.db.fetch_all(
        "SELECT owner FROM debate_lease_claims WHERE debate_id = ? ORDER BY generation",
        (debate_id,),
    )
    assert claims[-1][0] == rig.owner and len(claims) >= 2  # claimed again for its timer
    await rig.handler.wait_idle(debate_id)
    assert len(rig.fake.calls_to("PATCH", CHANNEL)) == 1
