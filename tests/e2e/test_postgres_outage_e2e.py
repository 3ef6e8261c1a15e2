"""PostgreSQL goes down in the middle of a debate and comes back: the bot says so in one line
each way, tells a person who clicks meanwhile to try again shortly, waits it out, and the
debate finishes with every reply shown and logged once."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator

import pytest

from handlers.core.i18n import Strings
from tests.e2e.harness import World
from tests.e2e.observe import assert_clean_logs, assert_delivered, assert_each_turn_once
from tests.e2e.scripts import AG, CLAUDE, SETTINGS, script
from tests.e2e.seen import button_id
from tests.postgres import PostgresServer, start_server

pytestmark = pytest.mark.e2e

KO = Strings("ko")
EPHEMERAL = 64
UNREACHABLE = "PostgreSQL is unreachable"
STOPPED = re.compile(r"debate 1: lease (lost|not renewed in time)")


def whole_log(world: World) -> str:
    """Every line the bot logged (World.log keeps only the end)."""
    return "\n".join(p.read_text(errors="replace") for p in world.tmp.glob("bot-*.log"))


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of this test's own: the test stops it while the bot uses it."""
    server = start_server()
    try:
        yield server
    finally:
        with contextlib.suppress(RuntimeError):  # down already if the test failed mid-outage
            server.stop()


async def test_postgres_down_mid_turn_and_back_the_debate_finishes(
    world: World, own_server: PostgresServer
) -> None:
    url = await own_server.new_database()
    script(world)
    world.anthropic.script("hold")  # Claude's first call waits for the outage
    await world.start_bot(**SETTINGS, DATABASE_URL=url, LEASE_SECONDS="6")
    thread = await world.open_debate()
    await world.anthropic.wait_messages(1)

    await asyncio.to_thread(own_server.pause)
    world.anthropic.release()  # the reply comes back while nothing can be stored
    # down until the bot's lease has lapsed (it stops acting on the debate) and it said why
    await world.wait_for(lambda: STOPPED.search(world.log()), "the lease to lapse")
    assert UNREACHABLE in world.log()
    # alice presses Stop meanwhile: she is told it cannot be done now, and nothing is applied
    status = world.status_message(thread)
    assert status is not None
    click = await world.discord.click(status["id"], button_id(status, "stop"), world.alice)
    await world.discord.wait_ack(click, timeout=10)
    answer = world.discord.messages[str(click.response_message_id)]
    assert answer["content"] == KO("front.store_unavailable") and answer["flags"] & EPHEMERAL
    await asyncio.to_thread(own_server.resume)

    await world.wait_end(thread)
    assert assert_each_turn_once(world, thread) == 4
    assert_delivered(world, thread, CLAUDE + AG)
    assert "the database is reachable again" in whole_log(world)
    # clicks wake the process at once again (its reconnects wait up to 10 s between tries)
    await world.wait_for(lambda: "LISTEN connection made again" in whole_log(world), "LISTEN", 30)
    assert_clean_logs(world)  # warnings, one line each: no ERROR, no traceback
