"""`debate-room run`: the Discord bot, built around its client (re-exports Services, shutdown)."""

from __future__ import annotations

import asyncio
import logging
import random
import signal
from asyncio import new_event_loop
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

import aiohttp
import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.discord.ag.relay import AgRelayDebater
from bot.discord.client import DebateBot
from bot.discord.commands import AdminCommands
from bot.discord.fenced_http import lease_fence
from bot.discord.front import DiscordFront
from bot.discord.invite import MESSAGE_CONTENT_OFF
from bot.discord.room import DiscordRoom
from bot.root.engine import (
    Engine,
    SystemClock,
    build_detection,
    build_engine,
    build_moderator,
    build_scorer,
    build_wiki_backend,
    cli_debater,
    detection_limits,
    handler_config,
    wanted_backends,
)
from bot.root.services import Services, shutdown
from bot.root.sharing import database_url, front_engine, listen, shared_services
from bot.root.tables import Tables
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import Backend
from handlers.debate_handler import Engine as EngineService
from handlers.ports import Clock, Debater, DecisionScorer, GatewayClaims, Moderator
from handlers.prompting import participant_system_prompt
from tools.checks import one_line
from tools.store.db import Database
from tools.store.db_lock import DatabaseLock
from tools.store.sessions import schedule_session_expiry

log = logging.getLogger(__name__)

# A worker (no gateway) reads AG's channel this often while AG's turn waits: a REST call per
# waiting turn every 2 s, far inside Discord's limits, and a reply seen within 2 s.
AG_POLL_SECONDS = 2.0


async def assemble(
    bot: DebateBot,
    settings: Settings,
    services: Services,
    *,
    moderator: Moderator | None = None,
    debaters: Mapping[Backend, Debater] | None = None,
    clock: Clock | None = None,
    rng: random.Random | None = None,
) -> None:
    """Build every adapter around the logged-in client, then resume what was running."""
    # The keyword parts (tests: a scripted moderator, fake debaters, a clock, a seeded draw)
    # replace the configured ones.
    tables, strings = Tables(services.db), Strings(settings.LANGUAGE)
    clock = clock or SystemClock(settings.RETRY_WAIT_SCALE)
    scorer = None  # a scripted moderator (tests) brings its own score
    if moderator is None:
        moderator = build_moderator(settings, tables, asyncio.sleep)  # it scales waits itself
        services.closers.push_async_callback(moderator.aclose)
        scorer = build_scorer(settings, tables)
        if scorer is not None:
            services.closers.push_async_callback(scorer.aclose)
    engine = build_engine(
        tables,
        strings=strings,
        backend=build_wiki_backend(settings),
        wiki_root=settings.WIKI_ROOT,
        room=DiscordRoom(
            bot,
            tables.room_messages(),
            tables.proposals(),
            strings,
            clock,
            guard=services.leases,
        ),
        moderator=moderator,
        debaters=_debaters(bot, settings, tables, debaters or {}, services),
        clock=clock,
        rng=rng,
        config=handler_config(settings),
        leases=services.leases,
        # Sharing the debates, a debate claimed from another process comes with its timers.
        timer_safety_s=settings.WORKER_POLL_SECONDS if services.leases else None,
    )
    services.wiki, services.room, services.handler = engine.wiki, engine.room, engine.handler
    front = front_engine(services, engine, settings)
    if services.gateway:
        _front(bot, settings, engine, (moderator, scorer), front, clock, services.claims)
    _schedule(services.scheduler, services.db, settings)
    await engine.wiki.start()
    if services.runner is not None:
        await listen(services, settings, services.runner.wake)
        services.runner.start()
        log.info("debate-room started; claiming debates as %s", services.runner.leases.owner)
    elif services.leases is None:
        resumed = await engine.handler.resume_all()
        closed = await engine.handler.fire_due_timers()  # polls and limits that ended while down
        log.info("debate-room started; resumed debates %s; closed polls %s", resumed, closed)
    if services.runs_debates:  # fires the stored timers (of the debates held, when sharing)
        services.timers = engine.timers
        engine.timers.start(engine.fire_due)


def _front(
    bot: DebateBot,
    settings: Settings,
    engine: Engine[DiscordRoom],
    judges: tuple[Moderator, DecisionScorer | None],
    front: EngineService,
    clock: Clock,
    claims: GatewayClaims,
) -> None:
    """Detection and the click handlers of the process that holds the gateway."""
    moderator, scorer = judges
    detection = build_detection(
        moderator,
        engine.store,
        clock,
        channels=settings.DEBATE_CHANNEL_IDS,
        bot_user_id=bot.user.id if bot.user else 0,
        limits=detection_limits(settings),
        configs=engine.tables.server_settings(),
        claims=claims,
        scorer=scorer,
    )
    bot.front = DiscordFront(
        front,
        detection,
        engine.tables.room_messages(),
        Strings(settings.LANGUAGE),
        approver_role_id=settings.APPROVER_ROLE_ID,
        debater_ids=frozenset(settings.AG_USER_IDS),
        claims=claims,
    )
    admin = AdminCommands(
        front,
        engine.store,
        engine.tables.room_messages(),
        engine.tables.server_settings(),
        Strings(settings.LANGUAGE),
        clock,
        actor=bot.front.actor,
        roster=settings.roster,
        records=engine.tables.seat_records(),
        page_url=engine.wiki.page_url,
    )
    bot.tree.add_command(admin.group())  # registered per server as each becomes available
    bot.tree.error(admin.on_error)
    bot.guild_listeners.append(admin.claim)


def _schedule(
    scheduler: AsyncIOScheduler,
    db: Database,
    settings: Settings,
) -> None:
    """The scheduler's job: old sessions are dropped (the cards' expiry and the stored timers
    have their own driver, bot.root.timers)."""
    schedule_session_expiry(scheduler, db, settings.CLAUDE_SESSION_TTL_DAYS)
    scheduler.start()


def _debaters(
    bot: DebateBot,
    settings: Settings,
    tables: Tables,
    given: Mapping[Backend, Debater],
    services: Services,
) -> dict[Backend, Debater]:
    """The given debaters, and the relay or CLI seat of each other backend the roster uses."""
    chosen = dict(given)
    wanted = wanted_backends(settings) - chosen.keys()
    for backend in wanted & {Backend.CLAUDE_CLI, Backend.GEMINI_CLI}:
        chosen[backend] = cli_debater(backend, settings, tables, settings.DATA_DIR)
    if Backend.AG_RELAY in wanted:
        ag = AgRelayDebater(
            bot,
            tables.room_messages(),
            ag_user_ids=settings.AG_USER_IDS,
            relay_channel_id=settings.AG_RELAY_CHANNEL_ID,
            timeout_s=settings.AG_TIMEOUT_SECONDS,
            quiet_s=settings.AG_QUIET_SECONDS,
            briefing=participant_system_prompt(settings.LANGUAGE),
            poll_s=None if services.gateway else AG_POLL_SECONDS,  # a worker hears nothing
            guard=services.leases,
        )
        if services.gateway and services.runs_debates:  # a gateway-only process asks nobody
            bot.message_listeners.append(ag.on_message)
            bot.edit_listeners.append(ag.on_message_edit)
        chosen[Backend.AG_RELAY] = ag
    return chosen


async def serve(settings: Settings) -> None:
    """Open the database (the locked SQLite file, or the shared one) and run the bot."""
    if database_url(settings) is not None:
        await _serve(settings, await shared_services(settings, gateway=True))
        return
    lock = DatabaseLock(settings.DATABASE_PATH)
    lock.acquire()  # held to the end: a second bot on this SQLite file refuses to start
    try:
        await _serve(settings, Services(db=await Database.open(str(settings.DATABASE_PATH))))
    finally:
        lock.release()


async def _serve(settings: Settings, services: Services, *, gateway: bool = True) -> None:
    """Run the client, on the gateway or over REST only, until SIGTERM/SIGINT (docker stop)."""

    async def ready(bot: DebateBot) -> None:
        await assemble(bot, settings, services)

    async def close() -> None:
        await shutdown(services)

    fence = lease_fence(services.leases) if services.leases is not None else None
    bot = DebateBot(on_ready_hook=ready, on_close_hook=close, http_trace=fence)
    token = settings.DISCORD_TOKEN.get_secret_value() if settings.DISCORD_TOKEN else ""
    await (_connected(bot, token) if gateway else _rest_only(bot, token))


async def _connected(bot: DebateBot, token: str) -> None:
    closing: set[asyncio.Task[None]] = set()

    def stop() -> None:
        if not closing:
            closing.add(asyncio.create_task(bot.close()))

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    async with bot:
        await bot.start(token)
    await asyncio.gather(*closing)


async def _rest_only(bot: DebateBot, token: str) -> None:
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    async with bot:  # leaving it closes the client, and with it the engine (on_close_hook)
        await bot.login(token)  # REST only: setup_hook builds the engine and starts claiming
        await stopping.wait()


async def serve_worker(settings: Settings) -> None:
    """`debate-room worker`: over the REST API only, run the debates whose lease it
    holds; clicks and messages reach the `run` process, which stores them in the inbox."""
    await _serve(settings, await shared_services(settings, gateway=False), gateway=False)


def run_command(settings: Settings, main: Callable[[Settings], Coroutine[Any, Any, None]]) -> int:
    """A command (`run`: `serve`, `worker`: `serve_worker`) with logging set up; its exit code."""
    logging.basicConfig(
        level=settings.LOG_LEVEL, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # The bot never speaks in voice: discord.py's two warnings about voice libraries are noise.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    try:
        # The bot's loop is asyncio's own; the benchmarks run on the same (new_event_loop).
        with asyncio.Runner(loop_factory=new_event_loop) as runner:
            runner.run(main(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN)")  # noqa: TRY400  # no traceback
        return 1
    except discord.PrivilegedIntentsRequired:
        # discord.py's own advice names every privileged intent; this bot asks for one.
        log.error(MESSAGE_CONTENT_OFF)  # noqa: TRY400  # one line, no traceback
        return 2  # the setup must change, as for a bad setting
    except (aiohttp.ClientError, discord.HTTPException, OSError, TimeoutError) as exc:
        # DNS, refused connection, a Discord outage at start-up: one line, no traceback.
        log.error("cannot reach Discord: %s", one_line(exc))  # noqa: TRY400  # one line, no traceback
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


__all__ = [
    "Services",
    "assemble",
    "new_event_loop",
    "run_command",
    "serve",
    "serve_worker",
    "shared_services",
    "shutdown",
]
