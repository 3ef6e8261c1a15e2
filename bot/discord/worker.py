"""`debate-room worker`: runs debates without a gateway connection (issue 20).

The worker logs in over Discord's REST API only (no gateway session): it posts turns, edits
status lines, creates threads, calls the debaters and writes the wiki for the debates whose
lease it holds. Clicks and messages reach the `run` process (the gateway), which stores them in
the inbox; the worker applies them. It needs the shared database (DATABASE_URL, PostgreSQL).
"""

from __future__ import annotations

import asyncio
import signal

from bot.discord.app import Services, assemble, run_command, shared_services, shutdown
from bot.discord.client import DebateBot
from bot.settings import Settings


async def serve_worker(settings: Settings) -> None:
    """Open the shared database, log in over REST, run leased debates until SIGTERM/SIGINT."""
    services = await shared_services(settings, gateway=False)
    await _serve(settings, services)


async def _serve(settings: Settings, services: Services) -> None:
    async def ready(bot: DebateBot) -> None:
        await assemble(bot, settings, services)

    async def close() -> None:
        await shutdown(services)

    bot = DebateBot(on_ready_hook=ready, on_close_hook=close)
    token = settings.DISCORD_TOKEN.get_secret_value() if settings.DISCORD_TOKEN else ""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    async with bot:  # leaving it closes the client, and with it the engine (on_close_hook)
        await bot.login(token)  # REST only: setup_hook builds the engine and starts claiming
        await stopping.wait()


def run_worker(settings: Settings) -> int:
    """The `debate-room worker` command."""
    return run_command(settings, serve_worker)
