"""A loopback fake of Discord (REST + gateway) that the real discord.py 2.7 client talks to.

In a test: `fake = await FakeDiscord().start()`, redirect discord.py with
`tests.fakes.discord_loopback.redirected(fake.api_base, fake.gateway_url)` (or, for a bot run
as a subprocess, `subprocess_env(fake)` which puts `tests/fakes/sitecustomize` on PYTHONPATH),
act as people with `user_message` / `click`, and assert on `fake.calls` (every REST request),
`fake.messages`, `fake.allowed_mentions` and `fake.world.was_pinged(id)`.
Standalone: `python -m tests.fakes.fake_discord --port N` prints the world as one JSON line
and serves a small control API under /_fake/ (see discord_control.py).

Unknown routes answer 404 JSON (never 5xx: discord.py retries those with sleeps) and land
in `fake.unhandled`, so a test can fail on them. Every exchange under /api/ is checked
against Discord's OpenAPI spec into `fake.contract` (see discord_spec.py); the fixtures and
harnesses that start the fake fail the test on a violation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from tests.fakes.discord_bulk import add_bulk_delete_route
from tests.fakes.discord_channel_ops import ChannelOps
from tests.fakes.discord_commands import add_command_routes
from tests.fakes.discord_gateway import Gateway
from tests.fakes.discord_http import Http, RestCall
from tests.fakes.discord_interactions import Interactions
from tests.fakes.discord_polls import Polls, add_poll_routes
from tests.fakes.discord_rest import Rest
from tests.fakes.discord_spec import report
from tests.fakes.discord_world import Json, World

__all__ = ["FakeDiscord", "RestCall", "main", "report_spawned", "spawn"]


class FakeDiscord(Http, Rest, ChannelOps, Gateway, Interactions):
    """The fake server; one guild (more with `world.add_guild`), a text channel `general`, the
    bot and an owner."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        port: int = 0,
        approved_intents: int | None = None,
        use_zlib: bool = True,
        interaction_deadline: float = 3.0,
        ratelimit_headers: bool = True,
    ) -> None:
        self.world = World()
        self.token = token
        self.requested_port = port
        self.approved_intents = approved_intents  # None: every privileged intent is enabled
        self.use_zlib = use_zlib
        self.interaction_deadline = interaction_deadline
        self.ratelimit_headers = ratelimit_headers
        self.nonce_window_s = 300.0  # Discord dedups an enforced nonce for a few minutes
        self._init_http()
        self._init_gateway()
        self._init_interactions()
        self._init_rest()
        self.polls = Polls(self)
        self.application_id = self.world.ids.next()
        self.bot_user = self.world.make_user("debate-bot", bot=True, user_id=self.application_id)
        self.owner = self.world.make_user("owner")
        self.tokens: dict[str, Json] = {token: self.bot_user}
        self.world.add_member(self.bot_user)
        self.world.add_member(self.owner)
        self.text_channel = self.world.add_text_channel("general")
        self.commands: dict[str, list[Json]] = {}  # each guild's registered application commands
        self._runner: web.AppRunner | None = None
        self.extra_routes: list[Callable[[web.UrlDispatcher], None]] = []

    # ---- shortcuts to the world ------------------------------------------------------
    @property
    def messages(self) -> dict[str, Json]:
        """Every message by id."""
        return self.world.messages

    @property
    def channels(self) -> dict[str, Json]:
        """Every channel and thread by id."""
        return self.world.channels

    @property
    def allowed_mentions(self) -> dict[str, Json | None]:
        """What each message's sender allowed to ping (None: the field was absent)."""
        return self.world.allowed_mentions

    def add_user(self, name: str, *, roles: list[str] | None = None) -> Json:
        """A person in the guild."""
        return self.world.add_member(self.world.make_user(name), roles)["user"]

    def add_bot(self, name: str) -> tuple[Json, str]:
        """Another bot account (e.g. AG) with its own token, for a second client."""
        user = self.world.make_user(name, bot=True)
        token = f"token-{user['id']}"
        self.tokens[token] = user
        self.world.add_member(user)
        return user, token

    async def vote(self, message_id: str, user: Json, answer_id: int) -> None:
        """`user` votes in a poll (answer ids start at 1)."""
        await self.polls.vote(message_id, user, answer_id)

    def messages_in(self, channel_id: str) -> list[Json]:
        """A channel's messages, oldest first."""
        return self.world.messages_in(channel_id)

    # ---- lifecycle ------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        """Listen on 127.0.0.1 (the given port, or a free one)."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._ws_handler)
        self.add_rest_routes(app.router)
        add_bulk_delete_route(app.router, self)
        add_poll_routes(app.router, self)
        add_command_routes(app.router, self)
        for add in self.extra_routes:
            add(app.router)
        app.router.add_route("*", "/{tail:.*}", self.h_unknown)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.requested_port).start()
        self.world.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Close every gateway session and the server."""
        for session in self.sessions:
            if not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def port(self) -> int:
        """The port the fake listens on."""
        return self.world.port

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:PORT: what FAKE_DISCORD holds for a subprocess."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What discord.http.Route.BASE becomes."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What DiscordWebSocket.DEFAULT_GATEWAY becomes."""
        return f"ws://127.0.0.1:{self.port}/gateway"


async def _serve(port: int, token: str) -> None:
    from tests.fakes.discord_control import add_control_routes  # noqa: PLC0415  # loaded in the fake's process only

    fake = FakeDiscord(token=token, port=port)
    fake.extra_routes.append(lambda router: add_control_routes(router, fake))
    await fake.start()
    print(
        json.dumps(
            {
                "port": fake.port,
                "token": fake.token,
                "base_url": fake.base_url,
                "guild_id": fake.world.guild_id,
                "channel_id": fake.text_channel["id"],
                "bot_user_id": fake.bot_user["id"],
                "owner_id": fake.owner["id"],
            }
        ),
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    await fake.stop()


async def spawn() -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """The standalone fake in a process of its own (as Discord is remote: the benchmarks'
    CPU figures leave it out), and its world as printed on its first line."""
    proc = subprocess.Popen(  # started once, before anything is measured
        [sys.executable, "-m", "tests.fakes.fake_discord", "--port", "0"],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = await asyncio.to_thread(proc.stdout.readline)
    return proc, json.loads(line)


async def report_spawned(base_url: str) -> None:
    """Print what a spawned fake's spec check found (see discord_spec.report)."""
    async with aiohttp.ClientSession() as http, http.get(f"{base_url}/_fake/contract") as answer:
        found = await answer.json()
    report(found["checked"], found["violations"])


def main(argv: list[str] | None = None) -> None:
    """`python -m tests.fakes.fake_discord --port N`: serve until SIGINT or SIGTERM."""
    parser = argparse.ArgumentParser(description="a loopback fake Discord for discord.py")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any)")
    parser.add_argument("--token", default="fake-bot-token", help="the bot's token")
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args.port, args.token))


if __name__ == "__main__":
    main()
