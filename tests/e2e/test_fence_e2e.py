"""Every write fenced, on real processes: a worker paused past its lease (SIGSTOP, as
`docker pause` or a long GC stall does) touches nothing when it wakes, not even an edit that was
waiting inside discord.py when it stopped, and a worker whose clock runs ahead takes no live
lease (lease times are the database's, not a host's).
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator

import pytest

from handlers.core.i18n import Strings
from tests.e2e.fleet import Fleet, lease_claims
from tests.e2e.harness import World
from tests.e2e.observe import assert_clean_logs, turn_footers
from tests.e2e.test_workers_e2e import assert_each_debate_whole, wait_all_ended
from tests.fakes.discord_limits import walk
from tests.fakes.discord_world import Json
from tools.store.db import Database

pytestmark = pytest.mark.e2e
KO = Strings("ko")
LIVE_NOTES = {KO("front.live_note", seat=name) for name in ("Claude", "Claude B")}


@pytest.fixture
async def fleet(world: World, postgres_url: str) -> AsyncIterator[Fleet]:
    started = Fleet(world, postgres_url)
    started.settings["MAX_ROUNDS"] = "1"  # two Claude turns
    try:
        yield started
    finally:
        for name in started.alive():
            started.signal(name, signal.SIGCONT)  # a stopped process cannot be killed cleanly
        started.stop()


def live_message(world: World, thread: str) -> Json | None:
    """The bot's message showing a reply while it is written (its footer says so)."""
    for message in world.bot_messages(thread):
        if any((e.get("footer") or {}).get("text") in LIVE_NOTES for e in message["embeds"]):
            return message
    return None


async def stop_cleanly(fleet: Fleet, name: str) -> None:
    """SIGTERM: the worker sends what it still had scheduled (status edits), then exits."""
    proc = fleet.workers[name]
    proc.terminate()
    assert await asyncio.to_thread(proc.wait, 30) == 0


async def test_a_worker_paused_past_its_lease_touches_nothing_when_it_wakes(
    world: World, fleet: Fleet
) -> None:
    # Five characters a delta, then it stalls: the answer's `{"opinion": "FA` and `KE RE`
    # arrived (its words shown live), the rest not.
    world.anthropic.stream_chunk, world.anthropic.stream_hold_after = 5, 4
    await fleet.start_gateway([world.channel_id])
    fleet.start_worker("w1")
    thread = await world.open_debate()
    status = await world.wait_for(lambda: world.status_message(thread), "the status line")
    path = f"/channels/{thread}/messages/{status['id']}"
    # w1's next status edit (Claude writing, a Stop button) is answered 429: discord.py sends
    # it again 5 s later. Stopped within them, w1 wakes past its lease with the edit still to
    # send, as a pause between a write's last check and its request leaves it.
    world.discord.inject_error("PATCH", re.escape(path), 429, retry_after=5.0)
    await world.wait_for(lambda: live_message(world, thread), "w1's live reply")
    await asyncio.wait_for(live_recorded(fleet.url), 30)  # posted, then recorded: both done
    await asyncio.wait_for(rate_limited(fleet, "w1"), 30)
    fleet.signal("w1", signal.SIGSTOP)  # paused mid-turn, its live reply and status in flight

    world.anthropic.stream_hold_after = None  # w2 asks again: that stream runs through
    fleet.start_worker("w2")  # claims the debate once w1's lease lapses, and finishes it
    ended = await wait_all_ended(world, fleet, 1)
    assert_each_debate_whole(world, ended, turns=2)
    await asyncio.wait_for(released(fleet.url), 30)  # w2 is done with it: nobody edits it again
    woken = len(world.discord.calls)
    fleet.signal("w1", signal.SIGCONT)  # the edit's wait is over: it would go out at once
    await world.wait_for(lambda: "lease lost; letting it go" in fleet.log("w1"), "w1 woken")
    await stop_cleanly(fleet, "w1")

    assert [c.method for c in world.discord.calls[woken:] if c.path == path] == []
    assert turn_footers(world, thread) == {1: 1, 2: 1}  # no post deleted, none turned live
    assert live_message(world, thread) is None
    edited = world.status_message(thread)
    assert edited is not None and world.status_ended(thread)
    assert not [c for c in walk(edited["components"]) if "custom_id" in c]  # no Stop came back
    assert_clean_logs(world)


async def one_value(url: str, sql: str) -> int:
    """The first column of the query's first row (0 without one)."""
    db = await Database.open(url)
    try:
        row = await db.fetch_one(sql)
        return int(row[0]) if row is not None else 0
    finally:
        await db.close()


async def lease_end(url: str) -> int:
    """The lease's end as stored (one debate): it grows with each renewal."""
    return await one_value(url, "SELECT expires_at FROM debate_leases")


async def live_recorded(url: str) -> None:
    """Until a live message's record is stored (a pause between its post and its record
    leaves a message no other process knows of, a ghost of the partial text)."""
    while not await one_value(url, "SELECT count(*) FROM room_messages WHERE key LIKE 'live:%'"):
        await asyncio.sleep(0.1)  # polls the table; the caller bounds the wait


async def rate_limited(fleet: Fleet, name: str) -> None:
    """Until the worker logs a 429 it waits out before sending its request again."""
    while "We are being rate limited" not in fleet.log(name):
        await asyncio.sleep(0.05)  # polls the log; the caller bounds the wait


async def released(url: str) -> None:
    """Until the debate's holder has given it up (it ended, and nothing is left to do)."""
    while await one_value(url, "SELECT count(*) FROM debate_leases WHERE expires_at > 0"):
        await asyncio.sleep(0.1)  # polls the table; the caller bounds the wait


async def renewed_twice(url: str) -> None:
    """Until the holder has renewed its lease twice more (a third of a lease apart)."""
    start, seen = await lease_end(url), 0
    while seen < 2:
        await asyncio.sleep(0.2)  # polls the table; the caller bounds the wait
        end = await lease_end(url)
        seen, start = (seen + 1, end) if end > start else (seen, start)


async def test_a_worker_whose_clock_runs_ahead_takes_no_live_lease(
    world: World, fleet: Fleet
) -> None:
    world.anthropic.script("hold")  # w1's first Claude call waits: its lease is live
    await fleet.start_gateway([world.channel_id])
    fleet.start_worker("w1")
    await world.open_debate()
    await world.anthropic.wait_messages(1)
    fleet.start_worker("w2", FAKE_CLOCK_AHEAD_S="12")  # three leases ahead
    await world.wait_for(lambda: "claiming debates as" in fleet.log("w2"), "w2 up")
    await asyncio.wait_for(renewed_twice(fleet.url), 30)  # w2 polled all along (0.3 s)

    world.anthropic.release()
    ended = await wait_all_ended(world, fleet, 1)
    assert_each_debate_whole(world, ended, turns=2)
    claims = await lease_claims(fleet.url)
    assert [fleet.worker_of(c[2]) for c in claims] == ["w1"]  # w2 never took it
    assert len(world.anthropic.message_requests()) == 2  # no turn paid twice
    assert fleet.alive() == ["w1", "w2"]
    assert_clean_logs(world)
