"""`/debate stats`'s read side on SQLite and PostgreSQL: one server's debates and its turns'
stances, scoped to the server (and the period) in the query itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest

from handlers.core.kinds import Stance
from handlers.core.model import AG, CLAUDE, Debate
from tests.bot.stats_support import CONCEDED, GUILD_A, GUILD_B, ONE_SIDED, Said, built, stored
from tests.doubles import T0
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.seat_records import SeatRecords


async def _all(reads: SeatRecords, guild_id: int | None, since: datetime | None) -> list[Debate]:
    return [debate async for debate in reads.debates(guild_id, since)]


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


async def test_each_server_reads_only_its_own_debates_and_turns(db: Database) -> None:
    store, reads = SqliteStore(db), SeatRecords(db)
    old = await stored(
        store, built(CONCEDED, guild_id=GUILD_A, at=T0 - timedelta(days=40)), CONCEDED
    )
    new = await stored(store, built(ONE_SIDED, guild_id=GUILD_A, faltered=(CLAUDE,)), ONE_SIDED)
    other = await stored(
        store, built((Said(AG, Stance.AGREE),), guild_id=GUILD_B), (Said(AG, Stance.AGREE),)
    )

    mine = await _all(reads, GUILD_A, None)
    assert [d.id for d in mine] == [old, new]
    assert mine[1].floor.faltered == (CLAUDE,)  # the whole state, as stored
    assert await reads.stances(GUILD_A, None) == [
        (old, n, s.seat, s.stance) for n, s in enumerate(CONCEDED, 1)
    ] + [(new, n, s.seat, s.stance) for n, s in enumerate(ONE_SIDED, 1)]

    theirs = await _all(reads, GUILD_B, None)
    assert [d.id for d in theirs] == [other]
    assert await reads.stances(GUILD_B, None) == [(other, 1, AG, Stance.AGREE)]
    assert await _all(reads, 999, None) == []
    assert await reads.stances(999, None) == []

    since = T0 - timedelta(days=30)
    assert [d.id for d in await _all(reads, GUILD_A, since)] == [new]
    assert {row[0] for row in await reads.stances(GUILD_A, since)} == {new}
    everyone = await _all(reads, None, None)  # the console: every debate of its database
    assert [d.id for d in everyone] == [old, new, other]


async def test_a_turn_with_no_stance_reads_as_none(db: Database) -> None:
    said = (Said(AG), Said(CLAUDE, Stance.PARTIAL))
    debate_id = await stored(SqliteStore(db), built(said), said)
    assert await SeatRecords(db).stances(GUILD_A, None) == [
        (debate_id, 1, AG, None),
        (debate_id, 2, CLAUDE, Stance.PARTIAL),
    ]
