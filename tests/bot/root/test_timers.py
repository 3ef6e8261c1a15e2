"""The one timer driver, on a real store: asleep until the next stored timer is due, woken
when one is stored, firing the due ones; a process sharing the debates re-reads the timers at
its safety interval (another process may have stored one). Nothing sleeps: the driver's waits
are the test's to end, and the time is the fake clock's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.root.timers import TimerDriver
from tests.doubles import FakeClock, draft
from tests.handlers.conftest import proposal
from tools.store.db import Database
from tools.store.debates import SqliteStore

NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
WAIT_S = 5.0  # how long the test waits for the driver to get somewhere


class Waits:
    """The driver's wall-clock waits: each one asked is handed to the test, which ends it."""

    def __init__(self) -> None:
        self.asked: asyncio.Queue[tuple[float, asyncio.Future[None]]] = asyncio.Queue()

    async def __call__(self, seconds: float) -> None:
        ended = asyncio.get_running_loop().create_future()
        await self.asked.put((seconds, ended))
        await ended

    async def next(self) -> tuple[float, asyncio.Future[None]]:
        """The next wait the driver asks for."""
        return await asyncio.wait_for(self.asked.get(), WAIT_S)


class Rig:
    """A store with one debate, the fake clock, and the passes the driver made."""

    def __init__(self, store: SqliteStore, debate_id: int) -> None:
        self.store, self.debate_id = store, debate_id
        self.clock = FakeClock(NOW)
        self.fired: asyncio.Queue[list[int]] = asyncio.Queue()

    async def fire(self) -> list[int]:
        """As the engine's fire_due_timers: each due timer's debate, its timer then done."""
        due = await self.store.due_timers(self.clock.now())
        for debate_id in due:
            await self.store.timer_done(debate_id, self.clock.now())
        self.fired.put_nowait(due)
        return due

    async def passed(self) -> list[int]:
        """What the driver's next pass fired."""
        return await asyncio.wait_for(self.fired.get(), WAIT_S)


@pytest.fixture
async def rig(database_target: str) -> AsyncIterator[Rig]:
    db = await Database.open(database_target)
    store = SqliteStore(db)
    debate = await store.create(draft(proposal(), 3, NOW), timedelta(hours=1), ())
    assert debate is not None
    try:
        yield Rig(store, debate.id)
    finally:
        await db.close()


async def test_the_driver_sleeps_until_the_stored_timer_and_then_fires_it(rig: Rig) -> None:
    waits = Waits()
    driver = TimerDriver(rig.store, rig.clock, wait=waits)
    timers = driver.watching(rig.store.ports()).timers
    driver.start(rig.fire)
    try:
        assert await rig.passed() == []  # the first pass: nothing stored, so no wait at all
        assert waits.asked.empty()
        await timers.schedule_poll(rig.debate_id, NOW + timedelta(hours=1))  # wakes it
        assert await rig.passed() == []  # not yet due
        seconds, ended = await waits.next()
        assert seconds == 3600
        rig.clock.advance(3600)
        ended.set_result(None)
        assert await rig.passed() == [rig.debate_id]
        assert await rig.store.next_due(rig.clock.now()) is None
    finally:
        await driver.aclose()


async def test_a_nearer_timer_stored_shortens_the_wait(rig: Rig) -> None:
    waits = Waits()
    driver = TimerDriver(rig.store, rig.clock, wait=waits)
    timers = driver.watching(rig.store.ports()).timers
    await timers.schedule_poll(rig.debate_id, NOW + timedelta(hours=1))
    driver.start(rig.fire)
    try:
        assert await rig.passed() == []
        assert (await waits.next())[0] == 3600
        await timers.schedule_resume(rig.debate_id, NOW + timedelta(seconds=60))  # replaces it
        assert await rig.passed() == []
        seconds, ended = await waits.next()
        assert seconds == 60
        rig.clock.advance(60)
        ended.set_result(None)
        assert await rig.passed() == [rig.debate_id]
    finally:
        await driver.aclose()


async def test_a_sharing_process_finds_a_timer_another_one_stored(rig: Rig) -> None:
    waits = Waits()
    driver = TimerDriver(rig.store, rig.clock, safety_s=15.0, wait=waits)
    driver.start(rig.fire)
    try:
        assert await rig.passed() == []
        seconds, ended = await waits.next()
        assert seconds == 15.0  # no timer: the safety re-read
        await rig.store.schedule_poll(rig.debate_id, NOW)  # another process's: no nudge here
        assert waits.asked.empty() and rig.fired.empty()
        ended.set_result(None)
        assert await rig.passed() == [rig.debate_id]
    finally:
        await driver.aclose()


async def test_a_card_stored_wakes_the_driver_until_it_expires(rig: Rig) -> None:
    waits = Waits()
    driver = TimerDriver(rig.store, rig.clock, cards=rig.store, wait=waits)
    debates = driver.watching(rig.store.ports()).debates

    async def expire() -> list[int]:  # as the engine's expire_due, the cards left waiting
        due = await rig.store.due_proposals(rig.clock.now())
        rig.fired.put_nowait(due)
        return due

    driver.start(expire)
    try:
        assert await rig.passed() == []
        assert (await waits.next())[0] == 3600  # the rig's card waits for an hour
        later = await debates.create(
            draft(proposal(channel=2), 3, NOW), timedelta(minutes=1), ()
        )  # wakes it
        assert later is not None
        assert await rig.passed() == []
        seconds, ended = await waits.next()
        assert seconds == 60
        rig.clock.advance(60)
        ended.set_result(None)
        assert await rig.passed() == [later.id]
        assert await rig.store.next_expiry(rig.clock.now()) == NOW + timedelta(hours=1)
    finally:
        await driver.aclose()


async def test_the_next_due_time_skips_the_timers_done_and_those_due_already(rig: Rig) -> None:
    store, debate_id = rig.store, rig.debate_id
    assert await store.next_due(NOW) is None
    await store.schedule_poll(debate_id, NOW + timedelta(minutes=5))
    assert await store.next_due(NOW) == NOW + timedelta(minutes=5)
    assert await store.next_due(NOW + timedelta(minutes=5)) is None  # due by then
    await store.cancel_timer(debate_id, NOW)
    assert await store.next_due(NOW) is None
