"""The bot on PostgreSQL (DATABASE_URL): `kill -9` during a Claude turn, a restart on the same
database, and the debate finishes with every reply shown and logged once, as on SQLite."""

from __future__ import annotations

import pytest

from tests.e2e.harness import World
from tests.e2e.scripts import SETTINGS, script
from tests.e2e.test_restart_e2e import finish_and_check
from tools.store.db import Database

pytestmark = pytest.mark.e2e


async def test_killed_during_a_claude_turn_on_postgres(world: World, postgres_url: str) -> None:
    on_postgres = {**SETTINGS, "DATABASE_URL": postgres_url}
    script(world)
    world.anthropic.script("hold")  # Claude's first call hangs until the kill
    await world.start_bot(**on_postgres)
    thread = await world.open_debate()
    await world.anthropic.wait_messages(1)
    await world.crash()

    await world.start_bot(**on_postgres)
    await finish_and_check(world, thread)
    assert len(world.anthropic.message_requests()) == 3  # the lost call, then one per turn
    assert not (world.tmp / "bot.sqlite3").exists()  # no SQLite file, no file lock
    assert not (world.tmp / "bot.sqlite3.lock").exists()
    db = await Database.open(postgres_url)
    try:
        row = await db.fetch_one("SELECT count(*), max(phase) FROM debates")
        turns = await db.fetch_one("SELECT count(*) FROM turns")
    finally:
        await db.close()
    assert row is not None and row[0] == 1 and row[1] == "concluded"
    assert turns is not None and turns[0] == 4
