"""The PostgreSQL migrations are twins of the SQLite ones: same numbers, and after migrating
both databases hold the same tables with the same columns (read back from each database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.store.db import Database, DatabaseError, bundled_migrations


def test_every_migration_has_a_postgres_twin_with_the_same_number() -> None:
    sqlite = [(v, name) for v, name, _ in bundled_migrations("sqlite")]
    postgres = [(v, name) for v, name, _ in bundled_migrations("postgres")]
    assert postgres == sqlite


async def test_both_stores_hold_the_same_tables_and_columns_after_migrating(
    tmp_path: Path, postgres_url: str
) -> None:
    lite = await Database.open(str(tmp_path / "twin.sqlite3"))
    pg = await Database.open(postgres_url)
    try:
        assert lite.dialect == "sqlite"
        assert pg.dialect == "postgres"
        assert await pg.tables() == await lite.tables()
        assert await pg.applied_versions() == await lite.applied_versions()
        assert await pg.applied_versions() == [v for v, _, _ in bundled_migrations("postgres")]
    finally:
        await lite.close()
        await pg.close()


@pytest.mark.parametrize("upto", range(len(bundled_migrations("postgres")) + 1))
async def test_a_postgres_database_at_an_earlier_version_is_brought_up_to_date(
    postgres_url: str, upto: int
) -> None:
    migrations = bundled_migrations("postgres")
    old = await Database.open(postgres_url, migrations[:upto])
    assert await old.applied_versions() == [v for v, _, _ in migrations[:upto]]
    await old.close()
    db = await Database.open(postgres_url)
    try:
        assert await db.applied_versions() == [v for v, _, _ in migrations]
        assert await db.migrate(migrations) == []
    finally:
        await db.close()


async def test_a_broken_postgres_migration_rolls_back_and_says_so(postgres_url: str) -> None:
    bad = [*bundled_migrations("postgres"), (9999, "9999_broken.sql", "CREATE TABLE x (;")]
    with pytest.raises(DatabaseError, match="cannot prepare"):
        await Database.open(postgres_url, bad)
    db = await Database.open(postgres_url)
    try:
        assert 9999 not in await db.applied_versions()
        assert "x" not in await db.tables()
    finally:
        await db.close()
