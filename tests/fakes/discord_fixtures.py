"""Reusable pytest fixtures for the loopback fake Discord.

Import them into a conftest.py (`from tests.fakes.discord_fixtures import fake, client,
errors, ag_client  # noqa: F401`). `fake` is a started FakeDiscord with discord.py redirected
to it; `client` a started, ready discord.py client logged in as the bot (every message it
receives goes to the callables in `client.message_listeners`); `ag_client` a second real
client logged in as another bot user ("AG"); `errors` collects what discord.py logged at
ERROR (it swallows exceptions in event handlers and only logs them). Every request and answer
under /api/ is checked against Discord's OpenAPI spec; the `fake` fixture fails the test on a
violation it did not declare with `fake.contract.expect_violation(...)`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import discord
import pytest

from tests.fakes.discord_loopback import redirected
from tests.fakes.fake_discord import FakeDiscord

READY_TIMEOUT = 10.0
MessageListener = Callable[[discord.Message], Awaitable[None]]


class ErrorCollector(logging.Handler):
    """Keeps every ERROR record of the `discord` logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep it."""
        self.records.append(record)

    def describe(self) -> list[str]:
        """The records as text, tracebacks included."""
        formatter = logging.Formatter()
        return [
            record.getMessage()
            + ("\n" + formatter.formatException(record.exc_info) if record.exc_info else "")
            for record in self.records
        ]


class ListeningClient(discord.Client):
    """A plain client that hands every received message to its listeners."""

    def __init__(self, **options: object) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.message_content = True
        super().__init__(intents=intents, guild_ready_timeout=0.05, **options)  # type: ignore[arg-type]  # the test's client options
        self.message_listeners: list[MessageListener] = []
        self.runner: asyncio.Task[None] | None = None

    async def on_message(self, message: discord.Message) -> None:
        """Forward to every listener."""
        for listener in self.message_listeners:
            await listener(message)


async def start_client(client: discord.Client, token: str) -> asyncio.Task[None]:
    """Log `client` in and wait until it is ready; returns the task running it."""
    task = asyncio.create_task(client.start(token))
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # raises the login error
        raise TimeoutError("the client did not become ready")
    if isinstance(client, ListeningClient):
        client.runner = task
    return task


async def stop_client(client: discord.Client, task: asyncio.Task[None] | None) -> None:
    """Close the client and wait for its task."""
    await client.close()
    if task is not None:
        with contextlib.suppress(asyncio.CancelledError, discord.DiscordException):
            await asyncio.wait_for(task, 5)


@pytest.fixture
def errors() -> Iterator[ErrorCollector]:
    """discord.py's logged errors during the test."""
    collector = ErrorCollector()
    logger = logging.getLogger("discord")
    logger.addHandler(collector)
    yield collector
    logger.removeHandler(collector)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started fake with discord.py redirected to it; fails the test on any exchange that
    Discord's OpenAPI spec forbids and the test did not expect (`fake.contract`)."""
    server = await FakeDiscord().start()
    with redirected(server.api_base, server.gateway_url):
        yield server
    await server.stop()
    server.contract.assert_conforms()


@pytest.fixture
async def client(fake: FakeDiscord, errors: ErrorCollector) -> AsyncIterator[ListeningClient]:
    """The bot's discord.py client, ready; fails the test on logged errors or unknown routes."""
    bot = ListeningClient()
    task = await start_client(bot, fake.token)
    yield bot
    await stop_client(bot, task)
    assert not errors.records, errors.describe()
    assert not fake.unhandled, [(c.method, c.path) for c in fake.unhandled]


@pytest.fixture
async def ag_client(fake: FakeDiscord) -> AsyncIterator[ListeningClient]:
    """A second real client logged in as the bot user "AG" (`ag_client.user`)."""
    _, token = fake.add_bot("AG")
    other = ListeningClient()
    task = await start_client(other, token)
    yield other
    await stop_client(other, task)
