"""What a bot process owns and closes: the database, the engine's parts, the timer driver, the
scheduler (the sessions' expiry), and (processes sharing the debates) its leases and their
runner."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.discord.room import DiscordRoom
from bot.root.lease_runner import LeaseRunner
from bot.root.timers import TimerDriver
from handlers.debate_handler import DebateHandler
from handlers.ports import GatewayClaims, OneGateway
from tools.store.db import Database
from tools.store.leases import Leases
from tools.wiki.outbox import WikiOutbox


@dataclass
class Services:
    """What the bot owns and closes."""

    db: Database
    handler: DebateHandler | None = None
    wiki: WikiOutbox | None = None
    room: DiscordRoom | None = None
    scheduler: AsyncIOScheduler = field(default_factory=AsyncIOScheduler)
    timers: TimerDriver | None = None  # the stored timers' one driver, when it runs debates
    closers: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack)
    # Processes sharing the debates (DATABASE_URL): this one's leases, and its runner unless
    # it only receives events (GATEWAY_ONLY); `gateway`: it receives clicks and messages.
    leases: Leases | None = None
    runner: LeaseRunner | None = None
    runs_debates: bool = True
    gateway: bool = True
    # Which gateway process acts on a message or a click: this one, unless several share.
    claims: GatewayClaims = field(default_factory=OneGateway)


async def shutdown(services: Services) -> None:
    """Stop the workers and the scheduler, and close the clients and the database."""
    with contextlib.suppress(Exception):
        services.scheduler.shutdown(wait=False)
    if services.runner is not None:
        await services.runner.aclose()
    if services.timers is not None:
        await services.timers.aclose()
    if services.handler is not None:
        await services.handler.aclose()
    if services.runner is not None:
        await services.runner.release_all()  # a clean stop: others take the debates at once
    if services.room is not None:
        await services.room.aclose()
    if services.wiki is not None:
        await services.wiki.aclose()
    await services.closers.aclose()
    # A cancelled turn may have left a shielded write (a relay record) queued on the write
    # lock: one empty transaction after it lets it land before the connection closes.
    async with services.db.transaction():
        pass
    await services.db.close()
