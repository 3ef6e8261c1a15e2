"""Test-only: redirect discord.py to the loopback fake in a bot started as a subprocess.

Python imports `sitecustomize` at start-up from the PYTHONPATH; the tests put this folder
first (tests.fakes.discord_loopback.subprocess_env). With FAKE_DISCORD=http://127.0.0.1:PORT
set, discord.py's REST base and gateway point at the fake; FAKE_DISCORD_READY_TIMEOUT, if
set, shortens discord.py's wait after GUILD_CREATE (2 s by default). Without FAKE_DISCORD
this file does nothing. Anything but loopback is refused, so a test can never reach Discord.
FAKE_CLOCK_AHEAD_S, if set, moves this process's wall clock (`time.time`) that many seconds
ahead: a host whose clock runs fast.
"""

from __future__ import annotations

import os


def _redirect() -> None:
    url = os.environ.get("FAKE_DISCORD")
    if not url:
        return
    import discord.gateway  # noqa: PLC0415  # only when redirecting
    import discord.http  # noqa: PLC0415  # only when redirecting
    import discord.state  # noqa: PLC0415  # only when redirecting
    import yarl  # noqa: PLC0415  # only when redirecting

    parsed = yarl.URL(url)
    if parsed.host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"FAKE_DISCORD must point at loopback, not {parsed.host}")
    discord.http.Route.BASE = str(parsed.with_path("/api/v10"))
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = parsed.with_scheme("ws").with_path(
        "/gateway"
    )
    ready = os.environ.get("FAKE_DISCORD_READY_TIMEOUT")
    if ready:
        original = discord.state.ConnectionState.__init__

        def _init(self: object, *args: object, **options: object) -> None:
            options.setdefault("guild_ready_timeout", float(ready))
            original(self, *args, **options)  # type: ignore[arg-type]  # discord.py's own arguments, passed on

        discord.state.ConnectionState.__init__ = _init  # type: ignore[method-assign]  # every client waits `ready` for guilds


def _skew() -> None:
    ahead = float(os.environ.get("FAKE_CLOCK_AHEAD_S") or 0)
    if not ahead:
        return
    import time  # noqa: PLC0415  # only when skewing

    wall, wall_ns = time.time, time.time_ns
    time.time = lambda: wall() + ahead
    time.time_ns = lambda: wall_ns() + int(ahead * 1e9)


_redirect()
_skew()
