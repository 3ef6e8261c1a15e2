"""A process that shares the debates with others through PostgreSQL: its database
and leases, the inbox in front of its engine, and the NOTIFY that wakes it."""

from __future__ import annotations

from collections.abc import Callable

from bot.discord.room import DiscordRoom
from bot.root.engine import Engine
from bot.root.inbox_engine import InboxEngine
from bot.root.lease_runner import LeaseRunner
from bot.root.services import Services
from bot.root.tables import Tables
from bot.settings import Settings, SettingsError
from handlers.debate_handler import Engine as EngineService
from tools.store.db import Database
from tools.store.inbox import CHANNEL as INBOX_CHANNEL
from tools.store.leases import LeaseTiming, new_owner_id
from tools.store.pg_wakeup import Wakeup


def database_url(settings: Settings) -> str | None:
    """DATABASE_URL (PostgreSQL, shared by several processes), or None: the SQLite file."""
    return settings.DATABASE_URL.get_secret_value() if settings.DATABASE_URL else None


async def shared_services(settings: Settings, *, gateway: bool) -> Services:
    """A process sharing the debates: the shared database and this process's leases."""
    url = database_url(settings)
    if url is None:  # `run` asks for it only with a URL set
        raise SettingsError(
            "DATABASE_URL is not set: `debate-room worker` shares the debates with "
            "`debate-room run` through PostgreSQL (postgresql://user:password@host/db); "
            "with the SQLite file, `debate-room run` alone runs every debate"
        )
    db = await Database.open(url)
    tables = Tables(db)
    leases = tables.leases(new_owner_id(), LeaseTiming(settings.LEASE_SECONDS))
    runs = not gateway or not settings.GATEWAY_ONLY
    claims = tables.claims()  # several gateway processes may run: one acts on each event
    return Services(db=db, leases=leases, runs_debates=runs, gateway=gateway, claims=claims)


def front_engine(
    services: Services, engine: Engine[DiscordRoom], settings: Settings
) -> EngineService:
    """The engine, or when sharing the debates the inbox before it (and the lease runner)."""
    if services.leases is None:
        return engine.handler
    inbox = engine.tables.inbox()
    if services.runs_debates:
        services.runner = LeaseRunner(
            services.leases,
            engine.handler,
            engine.wiki,
            inbox,
            capacity=settings.WORKER_MAX_DEBATES,
            poll_s=settings.WORKER_POLL_SECONDS,
            forget=engine.room.forget,
            claimed=engine.timers.nudge,  # a debate claimed comes with its timers
            show_status=engine.room.status.update,
        )
    wake = services.runner.wake if services.runner else (lambda: None)
    return InboxEngine(engine.handler, engine.store, inbox, wake)


async def listen(services: Services, settings: Settings, wake: Callable[[], None]) -> None:
    """On PostgreSQL, a NOTIFY from another process (a command, a proposal) wakes the runner."""
    url = database_url(settings)
    if url is not None and services.db.dialect == "postgres":
        wakeup = await Wakeup.listen(url, INBOX_CHANNEL, wake)
        services.closers.push_async_callback(wakeup.aclose)
