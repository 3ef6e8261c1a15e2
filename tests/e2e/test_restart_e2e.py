"""Scenario 3: `kill -9` of the bot at several points, then a restart on the same database.

Whatever the point, the debate finishes; every reply is shown and logged exactly once; no
wiki write is lost or doubled; the card posted before the kill still opens the room.
"""

from __future__ import annotations

import asyncio

import pytest

from handlers.core.i18n import Strings
from tests.e2e.harness import World, contract
from tests.e2e.observe import (
    assert_clean_logs,
    assert_delivered,
    assert_each_turn_once,
    has_line,
    round_log_entries,
    turn_footers,
)
from tests.e2e.scripts import AG, CLAUDE, SETTINGS, script
from tests.fakes.discord_world import Json

KO = Strings("ko")

pytestmark = pytest.mark.e2e


async def finish_and_check(world: World, thread: str) -> None:
    """The debate ends; each of the four replies is shown once and logged once."""
    await world.wait_end(thread)
    assert assert_each_turn_once(world, thread) == 4
    assert_delivered(world, thread, CLAUDE + AG)
    assert_clean_logs(world)


async def test_a_card_from_before_the_kill_still_opens_the_room(world: World) -> None:
    script(world)
    await world.start_bot(**SETTINGS)
    card = await world.chat()
    await world.crash()  # the card waits for approval

    await world.start_bot(**SETTINGS)
    thread = await world.approve(card)  # the button posted by the killed bot
    await finish_and_check(world, thread)


async def test_killed_during_a_claude_turn(world: World) -> None:
    script(world)
    world.anthropic.script("hold")  # Claude's first call hangs until the kill
    await world.start_bot(**SETTINGS)
    thread = await world.open_debate()
    await world.anthropic.wait_messages(1)
    assert world.cli_pids()
    await world.crash()

    await world.start_bot(**SETTINGS)
    await finish_and_check(world, thread)
    assert len(world.anthropic.message_requests()) == 3  # the lost call, then one per turn


@pytest.mark.parametrize("moment", ["right after AG replied", "AG replies while it is down"])
async def test_killed_around_ags_reply(world: World, moment: str) -> None:
    script(world)
    killed = asyncio.Event()

    async def crash_once(_turn: int) -> None:
        if not killed.is_set():
            killed.set()
            await world.crash()

    if moment.startswith("right after"):
        world.ag.on_replied = crash_once  # the bot may or may not have read the reply
    else:
        world.ag.on_prompted = crash_once  # only the channel's history holds the reply
    await world.start_bot(**SETTINGS)
    thread = await world.open_debate()
    await world.wait_for(lambda: killed.is_set() and world.ag.sent, "AG's first reply")
    world.ag.on_replied = world.ag.on_prompted = None

    await world.start_bot(**SETTINGS)
    await finish_and_check(world, thread)


@pytest.mark.parametrize("moment", ["mid-debate", "after the end"])
async def test_killed_while_wiki_writes_are_queued(world: World, moment: str) -> None:
    script(world)
    fast = SETTINGS | {"RETRY_WAIT_SCALE": "0.01"}  # short wiki backoffs, not a busy loop
    await world.start_bot(**fast)
    thread = await world.open_debate()
    await world.wait_for(lambda: world.page("agenda"), "the Agenda page")
    world.wiki.failing = True  # from now on every write waits in the outbox

    def refused() -> int:
        return sum(1 for r in world.wiki.requests if r.status == 500)

    if moment == "mid-debate":
        await world.wait_for(lambda: turn_footers(world, thread), "a turn (its log entry queued)")
    else:  # every write of the debate is queued; only the restarted outbox can deliver them
        await world.wait_for(lambda: world.status_ended(thread), "the end", timeout=180)
    await world.wait_for(lambda: refused() >= 2, "failed wiki writes")
    await world.crash()
    assert world.page("conclusion") is None and not round_log_entries(world)

    before = refused()
    await world.start_bot(**fast)
    await world.wait_for(lambda: refused() > before, "the restarted outbox retrying")
    world.wiki.failing = False
    await finish_and_check(world, thread)
    await world.wait_for(lambda: has_line(world, thread, "✅ 위키가 복구되어"), "caught up")


async def test_killed_while_a_claude_reply_streams(world: World) -> None:
    world.anthropic.script_replies(contract(CLAUDE[0]))  # streamed into the kill
    world.ag.replies = [contract(AG[0]), contract(AG[1], "agree")]
    # Claude's first reply streams two pieces, then stalls until the kill.
    world.anthropic.stream_chunk, world.anthropic.stream_hold_after = 12, 2
    await world.start_bot(**SETTINGS)
    thread = await world.open_debate()
    live = await world.wait_for(lambda: live_message(world, thread), "the live reply")
    assert CLAUDE[0] not in world.embed_text(thread)  # only the beginning is shown so far
    await world.crash()

    world.anthropic.stream_hold_after = None  # the stream is not the record: asked again
    world.anthropic.script_replies(contract(CLAUDE[0]), contract(CLAUDE[1], "agree"))
    await world.start_bot(**SETTINGS)
    await finish_and_check(world, thread)
    assert live_message(world, thread) is None  # no half reply left behind
    first = next(m for m in world.bot_messages(thread) if m["id"] == live["id"])
    assert CLAUDE[0] in "".join(e.get("description", "") for e in first["embeds"])


def live_message(world: World, thread: str) -> Json | None:
    """The bot's message that shows a reply while it is written (its footer says so)."""
    note = KO("front.live_note", seat="Claude")
    for message in world.bot_messages(thread):
        if any((e.get("footer") or {}).get("text") == note for e in message.get("embeds", [])):
            return message
    return None
