"""Debate leases on the real stores: claim, renew, lapse, release, and the fence on writes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest

from handlers.core.effects import PostCard
from handlers.core.events import BudgetChosen, StopRequested, UserAnswered
from handlers.core.model import Debate, Phase
from handlers.leasing import LeaseLost
from tests.doubles import draft
from tests.handlers.conftest import ALICE, CAROL, proposal
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.inbox import Inbox
from tools.store.leases import LeasedStore, Leases, LeaseTiming

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
TIMING = LeaseTiming(lease_s=30)


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    opened = await Database.open(database_target)
    try:
        yield opened
    finally:
        await opened.close()


@dataclass
class Clocks:
    """The monotonic clock (local deadlines) and, as if the database's clock moved on, the
    lease expiries in the table (they are set and judged on the database's own clock)."""

    db: Database | None = None
    mono: float = 100.0

    def monotonic(self) -> float:
        return self.mono

    async def advance(self, seconds: float) -> None:
        self.mono += seconds
        assert self.db is not None
        aged = int(seconds * 1000)
        await self.db.execute("UPDATE debate_leases SET expires_at = expires_at - ?", (aged,))


def leases(db: Database, owner: str, clocks: Clocks) -> Leases:
    return Leases(db, owner, TIMING, monotonic=clocks.monotonic)


async def new_debate(db: Database, channel: int = 1) -> Debate:
    store = SqliteStore(db)
    return await store.create(
        draft(proposal(channel=channel), 3, NOW), timedelta(minutes=30), (PostCard(),)
    )


async def claims(db: Database) -> list[tuple[int, int, str, int, int]]:
    rows = await db.fetch_all(
        "SELECT debate_id, generation, owner, claimed_at, lapsed_at FROM debate_lease_claims"
        " ORDER BY debate_id, generation"
    )
    return [tuple(row) for row in rows]  # type: ignore[arg-type, misc]  # rows of the five columns selected


async def test_a_debate_is_claimed_by_one_process_until_its_lease_lapses(db: Database) -> None:
    clocks = Clocks(db)
    first, second = leases(db, "a", clocks), leases(db, "b", clocks)
    debate = await new_debate(db)

    assert await first.claim(5) == [debate.id]
    assert await second.claim(5) == []  # held
    assert first.holds(debate.id) and not second.holds(debate.id)

    await clocks.advance(25)  # renewed before the end: still a's
    assert await first.renew() == []
    await clocks.advance(25)
    assert await second.claim(5) == []

    await clocks.advance(31)  # a stopped renewing (paused, or dead): the lease lapses
    assert not first.holds(debate.id)  # a stopped acting before the lapse
    assert await second.claim(5) == [debate.id]
    assert await first.renew() == [debate.id]  # a learns it lost the debate
    assert first.held() == [] and second.generation(debate.id) == 2
    (_, a, a_at, a_lapsed), (_, b, b_at, lapsed) = [c[1:] for c in await claims(db)]
    assert (a, a_lapsed, b) == ("a", 0, "b") and b_at >= a_at
    # b claimed 26 s (the clock moved 25 + 31 s) past the end a's last renewal had secured
    assert 26_000 <= b_at - lapsed < 30_000


async def test_a_holder_stops_acting_a_margin_before_its_lease_could_lapse(db: Database) -> None:
    clocks = Clocks(db)
    holder = leases(db, "a", clocks)
    debate = await new_debate(db)
    await holder.claim(1)
    await clocks.advance(TIMING.lease_s - TIMING.margin_s - 0.1)
    assert holder.holds(debate.id)
    await clocks.advance(0.2)  # no renewal came back in time (a pause, a slow database)
    assert not holder.holds(debate.id)
    await holder.renew()
    assert holder.holds(debate.id)  # renewed: acting again


async def test_claims_take_at_most_the_limit_and_skip_ended_debates(db: Database) -> None:
    clocks = Clocks(db)
    holder = leases(db, "a", clocks)
    ids = [(await new_debate(db, channel)).id for channel in (1, 2, 3)]
    store = SqliteStore(db)
    ended = replace(await store.load(ids[0]), phase=Phase.DECLINED)
    await store.save_step(ended, (), None, NOW)  # no lease held yet: a plain store
    pending = await store.pending_effects(ids[0], 100)
    await store.complete_effects(ids[0], [effect_id for effect_id, _ in pending], NOW)

    assert await holder.claim(1) == [ids[1]]
    assert await holder.claim(5) == [ids[2]]  # the declined debate has nothing left to run


async def test_an_ended_debate_is_claimed_again_once_its_archive_timer_is_due(db: Database) -> None:
    holder = leases(db, "a", Clocks(db))
    debate = await new_debate(db)
    store = SqliteStore(db)
    await store.save_step(replace(debate, phase=Phase.CONCLUDED), (), None, NOW)
    pending = await store.pending_effects(debate.id, 100)
    await store.complete_effects(debate.id, [effect_id for effect_id, _ in pending], NOW)
    await store.schedule_resume(debate.id, NOW + timedelta(hours=2))  # the room's archive time

    assert await holder.claim(5) == []  # ended, nothing queued, no engine clock given
    assert await holder.claim(5, NOW + timedelta(hours=1)) == []  # not yet due
    assert await holder.claim(5, NOW + timedelta(hours=2)) == [debate.id]


async def test_a_released_debate_is_claimed_at_once(db: Database) -> None:
    clocks = Clocks(db)
    first, second = leases(db, "a", clocks), leases(db, "b", clocks)
    debate = await new_debate(db)
    await first.claim(1)
    await first.release(debate.id)
    assert await second.claim(1) == [debate.id]


async def test_a_process_that_lost_its_lease_stores_nothing(db: Database) -> None:
    clocks = Clocks(db)
    first, second = leases(db, "a", clocks), leases(db, "b", clocks)
    debate = await new_debate(db)
    await first.claim(1)
    old, new = LeasedStore(db, first), LeasedStore(db, second)
    await old.save_step(
        replace(debate, setup=replace(debate.setup, max_rounds=4)), (), None, NOW
    )  # a holds it: stored

    await clocks.advance(31)  # a is paused past its lease; b takes the debate over
    await second.claim(1)
    with pytest.raises(LeaseLost):
        await old.save_step(
            replace(debate, setup=replace(debate.setup, max_rounds=9)), (), None, NOW
        )
    assert (await new.load(debate.id)).setup.max_rounds == 4
    await new.save_step(replace(debate, setup=replace(debate.setup, max_rounds=5)), (), None, NOW)
    assert (await new.load(debate.id)).setup.max_rounds == 5


async def test_an_outward_write_is_confirmed_only_while_the_lease_is_live(db: Database) -> None:
    clocks = Clocks(db)
    first, second = leases(db, "a", clocks), leases(db, "b", clocks)
    debate = await new_debate(db)
    await first.claim(1)
    await first.confirm(debate.id)  # held: the live edit goes out
    await clocks.advance(TIMING.lease_s - TIMING.margin_s + 0.1)
    with pytest.raises(LeaseLost):  # past the local deadline (paused): nothing goes out
        await first.confirm(debate.id)
    await first.renew()
    await first.confirm(debate.id)
    await db.execute("UPDATE debate_leases SET expires_at = 0")  # lapsed by the database's clock
    with pytest.raises(LeaseLost):  # though the local deadline has not passed
        await first.confirm(debate.id)
    await second.claim(1)
    await first.renew()
    with pytest.raises(LeaseLost):
        await first.confirm(debate.id)
    await second.confirm(debate.id)


async def test_an_inbox_command_is_marked_done_with_the_step_it_made(db: Database) -> None:
    clocks = Clocks(db)
    holder = leases(db, "a", clocks)
    debate = await new_debate(db)
    await holder.claim(1)
    inbox, store = Inbox(db), LeasedStore(db, holder)
    await inbox.put(debate.id, BudgetChosen(ALICE, 5))
    (command,) = await inbox.pending([debate.id])
    assert (command.debate_id, command.event) == (debate.id, BudgetChosen(ALICE, 5))

    await store.save_step(
        replace(debate, setup=replace(debate.setup, max_rounds=5)),
        (),
        None,
        NOW,
        command=command.id,
    )
    assert await inbox.pending([debate.id]) == [] and await inbox.count(debate.id) == 0


async def test_a_command_is_not_marked_done_when_its_step_is_refused(db: Database) -> None:
    clocks = Clocks(db)
    first, second = leases(db, "a", clocks), leases(db, "b", clocks)
    debate = await new_debate(db)
    await first.claim(1)
    inbox = Inbox(db)
    await inbox.put(debate.id, StopRequested(ALICE))
    (command,) = await inbox.pending([debate.id])
    await clocks.advance(31)
    await second.claim(1)
    with pytest.raises(LeaseLost):
        await LeasedStore(db, first).save_step(debate, (), None, NOW, command=command.id)
    assert [c.id for c in await inbox.pending([debate.id])] == [command.id]  # b applies it


async def test_of_two_answers_to_one_question_the_inbox_keeps_the_first(
    database_target: str,
) -> None:
    """Two processes store an answer to question 2 at the same moment: one is stored, and the
    other is handed the stored one; an answer to another question, or another event, is kept."""
    dbs = [await Database.open(database_target) for _ in range(2)]
    try:
        debate = await new_debate(dbs[0])
        answers = (UserAnswered(ALICE, "Redis", 2), UserAnswered(CAROL, "LRU", 2))
        firsts = await asyncio.gather(
            *(Inbox(db).put(debate.id, a, "question:2") for db, a in zip(dbs, answers, strict=True))
        )
        (stored,) = await Inbox(dbs[0]).pending([debate.id])
        assert firsts.count(None) == 1 and stored.event in answers
        assert [f for f in firsts if f is not None] == [stored.event]  # the loser learns who won
        await Inbox(dbs[0]).mark_done(stored.id)  # applied: still the first, later too
        assert await Inbox(dbs[1]).put(debate.id, answers[0], "question:2") == stored.event
        assert await Inbox(dbs[1]).put(debate.id, answers[1], "question:3") is None
        assert await Inbox(dbs[1]).put(debate.id, StopRequested(CAROL)) is None
        assert await Inbox(dbs[1]).put(debate.id, StopRequested(CAROL)) is None  # no key: kept
        assert await Inbox(dbs[0]).count(debate.id) == 3
    finally:
        for db in dbs:
            await db.close()


async def test_processes_claiming_at_once_never_take_one_debate_twice(
    database_target: str,
) -> None:
    clocks = Clocks()  # never moved
    dbs = [await Database.open(database_target) for _ in range(3)]
    try:
        ids = {(await new_debate(dbs[0], channel)).id for channel in range(1, 9)}
        holders = [leases(db, f"p{n}", clocks) for n, db in enumerate(dbs)]
        taken = await asyncio.gather(*(holder.claim(3) for holder in holders))
        flat = [debate_id for batch in taken for debate_id in batch]
        assert len(flat) == len(set(flat))  # nobody got a debate another got
        assert set(flat) == ids  # 3 + 3 + 2: every debate found a process
        assert sorted(len(batch) for batch in taken) == [2, 3, 3]
    finally:
        for db in dbs:
            await db.close()
