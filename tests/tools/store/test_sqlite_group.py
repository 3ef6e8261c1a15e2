"""SQLite's group commit: writes made at the same time share one trip to the database thread
and one COMMIT, and each stays all-or-nothing and answered with its own outcome."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tools.store.db import Database
from tools.store.db_sqlite import SqliteDatabase

INSERT_QUOTA = "INSERT INTO moderator_quota (day, reason, at) VALUES (?, ?, ?)"
SELECT_DAYS = "SELECT day FROM moderator_quota"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    opened = await Database.open(str(tmp_path / "group.sqlite3"))
    assert isinstance(opened, SqliteDatabase)
    try:
        yield opened
    finally:
        await opened.close()


async def traced(db: SqliteDatabase) -> list[str]:
    """Every statement the connection runs from now on (SQLite's own trace)."""
    seen: list[str] = []
    await db._conn.set_trace_callback(seen.append)
    return seen


async def days(db: SqliteDatabase) -> set[str]:
    return {row[0] for row in await db.fetch_all(SELECT_DAYS)}


async def test_writes_made_at_once_share_one_commit(db: SqliteDatabase) -> None:
    seen = await traced(db)
    await asyncio.gather(*(db.execute(INSERT_QUOTA, (f"d{n}", "r", "t")) for n in range(20)))
    assert await days(db) == {f"d{n}" for n in range(20)}
    # all twenty were queued before the first trip: one transaction, and no savepoint for a
    # single statement (SQLite undoes a failed statement itself)
    assert [s for s in seen if s in ("BEGIN IMMEDIATE", "COMMIT")] == ["BEGIN IMMEDIATE", "COMMIT"]
    assert not [s for s in seen if s.startswith("SAVEPOINT")]


async def test_a_write_of_several_statements_goes_in_a_savepoint_of_its_own(
    db: SqliteDatabase,
) -> None:
    seen = await traced(db)
    pair = [(INSERT_QUOTA, ("p1", "r", "t")), (INSERT_QUOTA, ("p2", "r", "t"))]
    await asyncio.gather(db.write_all(pair), db.execute(INSERT_QUOTA, ("single", "r", "t")))
    assert [s for s in seen if s.startswith(("SAVEPOINT", "RELEASE"))] == [
        "SAVEPOINT one_write",
        "RELEASE one_write",
    ]
    assert await days(db) == {"p1", "p2", "single"}


async def test_a_single_statement_that_fails_part_way_leaves_none_of_its_changes(
    db: SqliteDatabase,
) -> None:
    for day in ("d1", "d2", "d3"):
        await db.execute(INSERT_QUOTA, (day, "r", "t"))
    # the UPDATE changes d1 and d2, then fails on d3 (NOT NULL): SQLite undoes the rows it
    # had changed, and the other write of the group commits
    clear_last = "UPDATE moderator_quota SET reason = CASE day WHEN 'd3' THEN NULL ELSE 'x' END"
    writes = [db.execute(clear_last), db.execute(INSERT_QUOTA, ("other", "r", "t"))]
    outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(outcomes[0], sqlite3.IntegrityError)
    assert outcomes[1] == 1
    reasons = await db.fetch_all("SELECT day, reason FROM moderator_quota ORDER BY day")
    assert [tuple(row) for row in reasons] == [
        ("d1", "r"),
        ("d2", "r"),
        ("d3", "r"),
        ("other", "r"),
    ]


async def test_a_lone_write_is_its_own_transaction(db: SqliteDatabase) -> None:
    seen = await traced(db)
    assert await db.execute(INSERT_QUOTA, ("d1", "r", "t")) == 1
    assert len(seen) == 1 and seen[0].startswith("INSERT INTO moderator_quota")  # autocommit


async def test_a_failing_write_fails_alone(db: SqliteDatabase) -> None:
    await db.execute(INSERT_QUOTA, ("taken", "r", "t"))
    writes = [
        db.execute(INSERT_QUOTA, ("a", "r", "t")),
        db.execute(INSERT_QUOTA, ("taken", "again", "t")),  # the primary key is taken
        db.write_all([(INSERT_QUOTA, ("b1", "r", "t")), (INSERT_QUOTA, ("b1", "r", "t"))]),
        db.write_all([(INSERT_QUOTA, ("c1", "r", "t")), (INSERT_QUOTA, ("c2", "r", "t"))]),
        db.insert(
            "INSERT INTO moderator_calls (debate_id, day, purpose, model, outcome, created_at)"
            " VALUES (?, ?, 'p', 'm', 'sent', 't') RETURNING id",
            (None, "d"),
        ),
    ]
    outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert outcomes[0] == 1
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert isinstance(outcomes[2], sqlite3.IntegrityError)  # its first statement is undone too
    assert outcomes[3] is None
    assert isinstance(outcomes[4], int) and outcomes[4] > 0
    assert await days(db) == {"taken", "a", "c1", "c2"}
    row = await db.fetch_one("SELECT reason FROM moderator_quota WHERE day = 'taken'")
    assert row is not None and row[0] == "r"


async def test_a_write_reported_done_is_in_the_file_even_when_the_disk_fills(
    db: SqliteDatabase,
) -> None:
    """SQLite may end the whole transaction on a full disk: then no write of the group is
    reported as done. Whatever it does, a write is answered done exactly when it was kept."""
    pages = await db.fetch_one("PRAGMA page_count")
    assert pages is not None
    await db._conn.execute(f"PRAGMA max_page_count = {int(pages[0]) + 2}")
    big = "x" * 200_000  # more than two pages: the disk is "full"
    writes = [db.execute(INSERT_QUOTA, (f"small{n}", "r", "t")) for n in range(3)]
    writes.insert(1, db.execute(INSERT_QUOTA, ("big", big, "t")))
    outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(outcomes[1], sqlite3.OperationalError)
    kept = await days(db)
    names = ["small0", "big", "small1", "small2"]
    assert {name for name, out in zip(names, outcomes, strict=True) if out == 1} == kept
    await db._conn.execute("PRAGMA max_page_count = 1000000")
    await db.execute(INSERT_QUOTA, ("after", "r", "t"))  # the connection is usable again
    assert "after" in await days(db)


async def test_a_write_waits_for_an_open_transaction_and_a_cancelled_caller_still_writes(
    db: SqliteDatabase,
) -> None:
    inside, release = asyncio.Event(), asyncio.Event()

    async def long_transaction() -> None:
        async with db.transaction() as conn:
            await conn.execute(INSERT_QUOTA, ("tx", "r", "t"))
            inside.set()
            await release.wait()

    holder = asyncio.create_task(long_transaction())
    await inside.wait()
    waiting = asyncio.create_task(db.execute(INSERT_QUOTA, ("queued", "r", "t")))
    cancelled = asyncio.create_task(db.execute(INSERT_QUOTA, ("cancelled", "r", "t")))
    await asyncio.sleep(0)  # both are queued behind the transaction
    cancelled.cancel()
    assert not waiting.done() and "queued" not in await days(db)
    release.set()
    await holder
    assert await waiting == 1
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert await days(db) == {"tx", "queued", "cancelled"}  # run to the end all the same


async def test_closing_waits_for_the_writes_under_way(tmp_path: Path) -> None:
    path = tmp_path / "close.sqlite3"
    db = await Database.open(str(path))
    writes = [asyncio.create_task(db.execute(INSERT_QUOTA, (f"d{n}", "r", "t"))) for n in range(5)]
    await asyncio.sleep(0)  # queued
    await db.close()
    assert [await write for write in writes] == [1] * 5
    with sqlite3.connect(path) as check:
        assert {row[0] for row in check.execute(SELECT_DAYS)} == {f"d{n}" for n in range(5)}


async def test_reads_made_at_once_share_one_trip_and_keep_their_own_outcomes(
    db: SqliteDatabase,
) -> None:
    await db.write_all([(INSERT_QUOTA, (f"d{n}", f"r{n}", "t")) for n in range(5)])
    trips: list[int] = []
    real = db._reads._trip

    async def counted(group: Any) -> Any:
        trips.append(len(group))
        return await real(group)

    db._reads._trip = counted
    one = "SELECT reason FROM moderator_quota WHERE day = ?"
    cancelled = asyncio.create_task(db.fetch_one(one, ("d0",)))
    reads = [asyncio.create_task(db.fetch_one(one, (f"d{n}",))) for n in range(5)]
    reads.append(asyncio.create_task(db.fetch_all("SELECT nothing FROM nowhere")))
    await asyncio.sleep(0)  # all seven are queued
    cancelled.cancel()  # stops waiting; the others are answered all the same
    outcomes = await asyncio.wait_for(asyncio.gather(*reads, return_exceptions=True), 10)
    assert [row[0] for row in outcomes[:5]] == [f"r{n}" for n in range(5)]  # type: ignore[index]  # the first five are rows
    assert isinstance(outcomes[5], sqlite3.OperationalError)
    assert trips == [7]  # one trip for all of them, the cancelled one included
    assert cancelled.cancelled()
    assert await db.fetch_one(one, ("d1",)) is not None  # and reads go on
