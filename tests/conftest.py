"""Fixtures for every test: a real PostgreSQL server for the store tests that run on both."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import PostgresServer, start_server

STORES = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (skipped without binaries, failed under CI)."""
    try:
        server = start_server()
    except RuntimeError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL tests cannot run: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh PostgreSQL database of this test's own (empty: Database.open migrates it)."""
    return await postgres_server.new_database()


@pytest.fixture(params=STORES)
async def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store test's database is: an SQLite file, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return await server.new_database()
