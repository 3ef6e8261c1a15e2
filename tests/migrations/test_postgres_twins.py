"""The PostgreSQL migrations are twins of the SQLite ones: same numbers, and after migrating
both databases hold the same tables with the same columns (read back from each database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.store.db import Database, DatabaseError, bundled_migrations

PG_COLUMNS = """
SELECT table_name, column_name FROM information_schema.columns
WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
"""
SQLITE_TABLES = (
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
)


async def _tables(db: Database) -> dict[str, list[str]]:
    """Every table of the schema and its columns in order, as the database itself lists them."""
    found: dict[str, list[str]] = {}
    if db.dialect == "postgres":
        for row in await db.fetch_all(PG_COLUMNS):
            found.setdefault(str(row[0]), []).append(str(row[1]))
        return found
    for (name,) in await db.fetch_all(SQLITE_TABLES):
        columns = await db.fetch_all(f"PRAGMA table_info({name})")
        found[str(name)] = [str(column[1]) for column in columns]
    return found


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
        assert await _tables(pg) == await _tables(lite)
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
        assert "x" not in await _tables(db)
    finally:
        await db.close()
