"""Migrations apply in order on a fresh file and on a file at every earlier version."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tools.store.db import Database, DatabaseError, bundled_migrations

EXPECTED_TABLES = {
    "debates",
    "proposals",
    "turns",
    "effects",
    "agent_sessions",
    "moderator_calls",
    "moderator_quota",
    "wiki_outbox",
    "wiki_pages",
    "room_messages",
    "schema_migrations",
}


async def _tables(db: Database) -> set[str]:
    rows = await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {row[0] for row in rows}


async def test_a_fresh_file_gets_every_migration_and_wal(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "fresh.sqlite3"))
    try:
        assert await db.applied_versions() == [v for v, _, _ in bundled_migrations()]
        assert await _tables(db) >= EXPECTED_TABLES
        mode = await db.fetch_one("PRAGMA journal_mode")
        assert mode is not None and mode[0] == "wal"
    finally:
        await db.close()


@pytest.mark.parametrize("upto", range(len(bundled_migrations()) + 1))
async def test_a_file_at_an_earlier_version_is_brought_up_to_date(
    tmp_path: Path, upto: int
) -> None:
    path = str(tmp_path / "old.sqlite3")
    migrations = bundled_migrations()
    old = await Database.open(path, migrations[:upto])
    assert await old.applied_versions() == [v for v, _, _ in migrations[:upto]]
    await old.close()
    db = await Database.open(path)
    try:
        assert await db.applied_versions() == [v for v, _, _ in migrations]
        assert await db.migrate(migrations) == []  # nothing applied twice
        assert await _tables(db) >= EXPECTED_TABLES
    finally:
        await db.close()


async def test_a_broken_migration_rolls_back_and_says_so(tmp_path: Path) -> None:
    path = str(tmp_path / "broken.sqlite3")
    bad = [*bundled_migrations(), (9999, "9999_broken.sql", "CREATE TABLE x (;")]
    with pytest.raises(DatabaseError, match="cannot prepare"):
        await Database.open(path, bad)
    db = await Database.open(path)
    try:
        assert 9999 not in await db.applied_versions()
    finally:
        await db.close()


async def test_an_unwritable_path_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(DatabaseError):
        await Database.open(str(blocker / "db.sqlite3"))


def test_migration_files_are_numbered_without_gaps() -> None:
    versions = [v for v, _, _ in bundled_migrations()]
    assert versions == list(range(1, len(versions) + 1))


async def test_a_cancelled_writer_never_leaves_a_transaction_open(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "cancel.sqlite3"))
    try:
        for attempt in range(30):
            task = asyncio.create_task(
                db.execute(
                    "INSERT INTO moderator_quota (day, reason, at) VALUES (?, 'x', 'y')",
                    (f"d{attempt}",),
                )
            )
            for _ in range(attempt % 6):
                await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        # the connection still takes writes
        await db.execute("INSERT INTO moderator_quota (day, reason, at) VALUES ('z', 'x', 'y')")
        row = await db.fetch_one("SELECT count(*) FROM moderator_quota WHERE day = 'z'")
        assert row is not None and row[0] == 1
    finally:
        await db.close()
