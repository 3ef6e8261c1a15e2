"""Point an unmodified discord.py 2.7 at the loopback fake: two class attributes.

`discord.http.Route.BASE` redirects every REST call (interaction callbacks and webhook
follow-ups included); `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` redirects the
WebSocket (a non-sharded client never asks GET /gateway/bot, and the fake's READY carries a
loopback resume_gateway_url). A bot run as a subprocess gets the same through
`tests/fakes/sitecustomize/sitecustomize.py` on its PYTHONPATH: the product has no test hook.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

import discord.gateway
import discord.http
import yarl

SITECUSTOMIZE_DIR = Path(__file__).resolve().parent / "sitecustomize"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
ENV_URL = "FAKE_DISCORD"  # http://127.0.0.1:PORT
ENV_READY_TIMEOUT = "FAKE_DISCORD_READY_TIMEOUT"  # seconds discord.py waits after GUILD_CREATE


@contextlib.contextmanager
def redirected(api_base: str, gateway_url: str) -> Iterator[None]:
    """Within the block, discord.py talks to the fake (in this process)."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


def redirect_to(url: str) -> None:
    """Redirect for good (a subprocess): `url` is http://127.0.0.1:PORT, loopback only."""
    parsed = yarl.URL(url)
    if parsed.host not in LOOPBACK_HOSTS:
        raise RuntimeError(f"{ENV_URL} must point at loopback, not {parsed.host}")
    discord.http.Route.BASE = str(parsed.with_path("/api/v10"))
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = parsed.with_scheme("ws").with_path(
        "/gateway"
    )


def subprocess_env(
    base_url: str, *, ready_timeout: float | None = 0.05, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Environment for a bot subprocess: the sitecustomize redirect first on PYTHONPATH."""
    env = dict(os.environ if base is None else base)
    paths = [str(SITECUSTOMIZE_DIR), str(SITECUSTOMIZE_DIR.parents[2])]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env[ENV_URL] = base_url
    if ready_timeout is not None:
        env[ENV_READY_TIMEOUT] = str(ready_timeout)
    return env
