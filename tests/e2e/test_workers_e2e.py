"""Several processes share the debates: one gateway and two workers on one real
PostgreSQL database, every process a real `debate-room` subprocess against the loopback fakes.

Five debates at once all finish; a worker killed (-9) in the middle of a Claude turn leaves its
debates to the other worker, which finishes them with every reply posted once and every
Round-Log section written once; no debate is ever held by two processes at once (the stored
claims over the run, and the fakes' records: no turn, reply or section twice).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from handlers.core.i18n import Strings
from tests.e2e.fleet import (
    Fleet,
    assert_claims_never_overlap,
    cards,
    lease_claims,
    leases,
    replies_shown,
    round_log_sections,
    threads,
)
from tests.e2e.harness import CHAT, World
from tests.e2e.observe import (
    assert_clean_logs,
    assert_delivered,
    assert_each_turn_once,
    turn_footers,
)
from tests.e2e.scripts import AG, CLAUDE, SETTINGS, script
from tests.e2e.seen import button_id

pytestmark = pytest.mark.e2e
KO = Strings("ko")
EPHEMERAL = 64


@pytest.fixture
async def fleet(world: World, postgres_url: str) -> AsyncIterator[Fleet]:
    started = Fleet(world, postgres_url)
    try:
        yield started
    finally:
        started.stop()


def open_channels(world: World, count: int) -> list[str]:
    """The watched channel and `count - 1` more, each for a debate of its own."""
    extra = [world.discord.world.add_text_channel(f"room-{n}")["id"] for n in range(1, count)]
    return [world.channel_id, *map(str, extra)]


async def open_debates(world: World, channels: list[str]) -> None:
    """People talk in each channel; once every card is up, alice opens each room."""
    people = {"alice": world.alice, "carol": world.carol, "bob": world.bob}
    for channel in channels:
        for name, text in CHAT:
            await world.discord.user_message(people[name], text, channel_id=channel)
    found = await world.wait_for(lambda: cards(world, channels), "a card in every channel")
    for card in found:
        await world.discord.click(card["id"], button_id(card, "open"), world.alice)


async def wait_all_ended(world: World, fleet: Fleet, count: int) -> dict[int, str]:
    """Every debate's thread shows the final status and its Conclusion page is written (the
    last of its wiki writes); returns debate id -> thread id."""

    def ended() -> list[str]:
        found = [i for i, c in world.discord.channels.items() if c.get("type") == 11]
        done = len(found) == count and all(world.status_ended(t) for t in found)
        conclusions = [p for p in world.wiki.pages.values() if p.path.endswith("/conclusion")]
        return sorted(found) if done and len(conclusions) == count else []

    await world.wait_for(ended, "every debate's end", timeout=240)
    found = await threads(fleet.url)
    assert sorted(found.values()) == ended()
    return found


def assert_each_debate_whole(world: World, ended: dict[int, str], turns: int) -> None:
    """Every debate: turns 1..n posted once each and logged once each; every debater reply
    shown once over all threads."""
    every = Counter(range(1, turns + 1))
    for debate_id, thread in ended.items():
        assert turn_footers(world, thread) == every, f"debate {debate_id}: turns posted"
        assert round_log_sections(world, debate_id) == every, f"debate {debate_id}: Round-Log"
    shown = replies_shown(world, list(ended.values()))
    assert len(shown) == turns * len(ended) and set(shown.values()) == {1}, shown


async def test_five_debates_at_once_all_finish_on_two_workers(world: World, fleet: Fleet) -> None:
    fleet.settings["MAX_ROUNDS"] = "1"  # two turns each: ten Claude turns over two workers
    fleet.settings["WORKER_MAX_DEBATES"] = "3"  # neither worker can take all five
    channels = open_channels(world, 5)
    await fleet.start_gateway(channels)
    fleet.start_worker("w1")
    fleet.start_worker("w2")
    await open_debates(world, channels)

    ended = await wait_all_ended(world, fleet, 5)
    assert_each_debate_whole(world, ended, turns=2)
    claims = await lease_claims(fleet.url)
    assert_claims_never_overlap(claims)
    owners = {fleet.worker_of(owner) for _, _, owner, _, _ in claims}
    assert owners == {"w1", "w2"}  # the debates were shared
    assert fleet.alive() == ["w1", "w2"]
    assert_clean_logs(world)


async def test_a_worker_killed_mid_turn_leaves_its_debates_to_the_other(
    world: World, fleet: Fleet
) -> None:
    fleet.settings["MAX_ROUNDS"] = "2"
    world.anthropic.script("hold")  # the first Claude call hangs until its worker is killed
    channels = open_channels(world, 2)
    await fleet.start_gateway(channels)
    fleet.start_worker("w1")
    fleet.start_worker("w2")
    await open_debates(world, channels)
    await world.anthropic.wait_messages(1)

    holders = await leases(fleet.url)
    busy = [name for name in fleet.workers if fleet.cli_pids(name)]
    assert len(busy) == 1, busy  # the worker running the held turn
    victim = busy[0]
    victims_debates = [d for d, owner in holders.items() if fleet.worker_of(owner) == victim]
    fleet.kill_worker(victim)

    ended = await wait_all_ended(world, fleet, 2)
    assert_each_debate_whole(world, ended, turns=4)
    claims = await lease_claims(fleet.url)
    assert_claims_never_overlap(claims)
    survivor = next(name for name in fleet.workers if name != victim)
    for debate_id in victims_debates:  # taken over once the victim's lease lapsed
        last = [c for c in claims if c[0] == debate_id][-1]
        assert fleet.worker_of(last[2]) == survivor and last[1] >= 2
    assert_clean_logs(world)


async def test_run_alone_on_postgres_runs_the_debate_and_answers_clicks_as_before(
    world: World, fleet: Fleet
) -> None:
    fleet.settings["MAX_ROUNDS"] = "1"
    await fleet.start_gateway([world.channel_id], only=False)  # no worker: run takes leases
    card = await world.chat()
    refused = await world.discord.click(card["id"], button_id(card, "open"), world.bob)
    await world.discord.wait_ack(refused, timeout=10)
    answer = world.discord.messages[str(refused.response_message_id)]
    assert answer["content"] == KO("front.refused") and answer["flags"] & EPHEMERAL
    assert world.thread_id() is None  # bob is not in the conversation: nothing opened

    await world.approve(card)
    ended = await wait_all_ended(world, fleet, 1)
    assert_each_debate_whole(world, ended, turns=2)
    claims = await lease_claims(fleet.url)
    assert world.proc is not None
    assert {int(owner.split(":")[1]) for _, _, owner, _, _ in claims} == {world.proc.pid}
    assert_clean_logs(world)


async def test_ag_answers_a_worker_through_the_relay_channel(world: World, fleet: Fleet) -> None:
    script(world)  # AG (a second Discord client) and Claude, two rounds
    fleet.settings |= SETTINGS | {"PARTICIPANTS": "ag:ag-relay:AG,claude:claude-cli:Claude"}
    await fleet.start_gateway([world.channel_id])
    fleet.start_worker("w1")  # no gateway: it reads AG's replies from the channel's history
    thread = await world.open_debate()
    await world.wait_end(thread)
    assert assert_each_turn_once(world, thread) == 4
    assert_delivered(world, thread, CLAUDE + AG)
    assert_clean_logs(world)


async def test_a_worker_stopped_cleanly_hands_its_debate_over_at_once(
    world: World, fleet: Fleet
) -> None:
    fleet.settings |= {"MAX_ROUNDS": "1", "LEASE_SECONDS": "600"}  # a lapse: ten minutes
    world.anthropic.script("hold")  # the first Claude call hangs: w1 is mid-turn when stopped
    await fleet.start_gateway([world.channel_id])
    fleet.start_worker("w1")
    thread = await world.open_debate()
    await world.anthropic.wait_messages(1)
    first = fleet.workers["w1"]
    first.terminate()  # SIGTERM, as `docker stop` sends: it gives its leases back
    assert await asyncio.to_thread(first.wait, 30) == 0

    fleet.start_worker("w2")  # takes the debate at once, not after the lease's ten minutes
    ended = await wait_all_ended(world, fleet, 1)
    assert list(ended.values()) == [thread]
    assert_each_debate_whole(world, ended, turns=2)
    claims = await lease_claims(fleet.url)
    assert [fleet.worker_of(c[2]) for c in claims] == ["w1", "w2"]
    assert claims[-1][4] == 0  # w2 claimed a released lease, not a lapsed one
    assert_clean_logs(world)
