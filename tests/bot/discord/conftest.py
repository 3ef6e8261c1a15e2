"""The bot rig: the real DebateBot and composition root against the loopback fake Discord.

`rig.start()` builds everything through `bot.root.discord_app.assemble` on a SQLite file and logs
the bot in; `rig.restart()` closes the client (the composition root's shutdown) and builds it all
again on the same file, as a restarted process would. The moderator is scripted, Claude a
FakeDebater; AG is the real relay answered by the AG client (`AgPlayer`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.discord.client import DebateBot
from bot.root.discord_app import Services, assemble, shutdown
from bot.root.sharing import shared_services
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import CLAUDE, Backend
from handlers.debate_handler import DebateHandler
from tests.bot.discord.doubles import AgPlayer
from tests.doubles import FakeClock, ScriptedModerator
from tests.fakes.discord_fixtures import (
    ErrorCollector,
    ListeningClient,
    ag_client,
    client,
    errors,
    fake,
    start_client,
    stop_client,
)
from tests.fakes.discord_world import Json
from tests.fakes.fake_discord import FakeDiscord
from tests.handlers.doubles import FakeDebater
from tools.store.db import Database
from tools.store.leases import Leases, LeaseTiming

__all__ = ["ag_client", "client", "errors", "fake"]

KO = Strings("ko")
OWN_LOGGERS = ("bot", "handlers", "tools", "asyncio")


@pytest.fixture
def own_errors() -> Iterator[ErrorCollector]:
    """What the product logged at ERROR (a failed effect, a crashed worker, a lost task)."""
    collector = ErrorCollector()
    for name in OWN_LOGGERS:
        logging.getLogger(name).addHandler(collector)
    yield collector
    for name in OWN_LOGGERS:
        logging.getLogger(name).removeHandler(collector)


@dataclass
class People:
    """alice and carol talk in the watched channel; bob is outside the conversation."""

    alice: Json
    carol: Json
    bob: Json


@dataclass
class BotRig:
    """The bot and its parts; one SQLite file across restarts."""

    fake: FakeDiscord
    ag: AgPlayer
    tmp: Path
    overrides: dict[str, object] = field(default_factory=dict)
    moderator: ScriptedModerator = field(default_factory=ScriptedModerator)
    claude: FakeDebater = field(default_factory=lambda: FakeDebater(CLAUDE))
    clock: FakeClock = field(default_factory=lambda: FakeClock(wall=True))
    seed: int = 3
    bot: DebateBot | None = None
    services: Services | None = None
    task: asyncio.Task[None] | None = None
    starts: int = 0
    owner: str = ""  # set: the process shares the debates through leases, as `owner`

    @property
    def settings(self) -> Settings:
        values: dict[str, object] = {
            "DISCORD_TOKEN": self.fake.token,
            "DEBATE_CHANNEL_IDS": str(self.fake.text_channel["id"]),
            "AG_USER_IDS": str(self.ag.user_id),
            "DATABASE_PATH": self.tmp / "bot.sqlite3",
            "DATA_DIR": self.tmp / "data",
            "LOCAL_WIKI_DIR": self.tmp / "wiki",
            "RETRY_WAIT_SCALE": 0,
            "DETECT_COOLDOWN_SECONDS": 0,
            "DETECT_MIN_NEW_MESSAGES": 2,
            "MAX_ROUNDS": 3,
            "BUDGET_PAUSE": False,  # these debates end at the round limit; test_budget pauses
            "AG_TIMEOUT_SECONDS": 30,
            "AG_QUIET_SECONDS": 5,
            **self.overrides,
        }
        return Settings.model_validate(values)

    async def start(self) -> DebateBot:
        settings = self.settings
        if settings.DATABASE_URL:  # sharing the debates on PostgreSQL: the inbox, a lease runner
            services = await shared_services(settings, gateway=True)
        else:
            db = await Database.open(str(settings.DATABASE_PATH))
            leases = (
                Leases(db, self.owner, LeaseTiming(settings.LEASE_SECONDS)) if self.owner else None
            )
            services = Services(db=db, leases=leases)

        async def ready(bot: DebateBot) -> None:
            await assemble(
                bot,
                settings,
                services,
                moderator=self.moderator,
                debaters={Backend.CLAUDE_CLI: self.claude},
                clock=self.clock,
                rng=random.Random(self.seed + self.starts),
            )

        async def close() -> None:
            await shutdown(services)

        bot = DebateBot(on_ready_hook=ready, on_close_hook=close, guild_ready_timeout=0.05)
        self.bot, self.services = bot, services
        self.task = await start_client(bot, self.fake.token)
        self.starts += 1
        return bot

    async def stop(self) -> None:
        if self.bot is not None:
            await stop_client(self.bot, self.task)
            self.bot = None

    async def restart(self) -> DebateBot:
        await self.stop()
        return await self.start()

    @property
    def handler(self) -> DebateHandler:
        assert self.services is not None and self.services.handler is not None
        return self.services.handler

    @property
    def channel_id(self) -> str:
        return str(self.fake.text_channel["id"])

    def bot_messages(self, channel_id: str) -> list[Json]:
        """The bot's own ordinary messages in a channel, oldest first."""
        bot_id = self.fake.bot_user["id"]
        return [
            m
            for m in self.fake.messages_in(channel_id)
            if m["author"]["id"] == bot_id and m["type"] == 0
        ]


@pytest.fixture
def people(fake: FakeDiscord) -> People:
    return People(fake.add_user("alice"), fake.add_user("carol"), fake.add_user("bob"))


@pytest.fixture
async def rig(
    fake: FakeDiscord,
    people: People,
    ag_client: ListeningClient,
    tmp_path: Path,
    errors: ErrorCollector,
    own_errors: ErrorCollector,
) -> AsyncIterator[BotRig]:
    """A rig not yet started; stopped at the end, failing on any logged error."""
    made = BotRig(fake, AgPlayer(ag_client), tmp_path)
    yield made
    await made.stop()
    assert not errors.records, errors.describe()
    assert not own_errors.records, own_errors.describe()
    assert not fake.unhandled, [(c.method, c.path) for c in fake.unhandled]
