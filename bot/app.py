"""The composition root: the one place that builds the database, the clients and the adapters."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.ag_relay import AgRelayDebater
from bot.discord_bot import DebateBot
from bot.front import DiscordFront
from bot.i18n import Strings
from bot.room import DiscordRoom
from bot.settings import Settings, configure_formats
from handlers.debate_handler import DebateHandler, HandlerConfig
from handlers.detection import DetectionHandler
from handlers.model import Backend
from handlers.ports import Clock, Debater, Moderator
from handlers.prompting import participant_system_prompt
from tools.claude_caller import ClaudeCodeDebater, schedule_session_expiry
from tools.db import Database
from tools.gemini_caller import build_moderator
from tools.gemini_cli_debater import GeminiCliDebater
from tools.store import SqliteStore
from tools.wiki_helper import WikiOutbox, build_wiki_backend

log = logging.getLogger(__name__)

EXPIRY_CHECK_SECONDS = 30
DETECTION_WINDOW = 20  # chat lines the moderator sees when it judges a conversation


class SystemClock:
    """The wall clock; waits scaled by RETRY_WAIT_SCALE (0 in tests turns them off)."""

    def __init__(self, scale: float = 1.0) -> None:
        self._scale = scale

    def now(self) -> datetime:
        """Now, in UTC."""
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        """Wait `seconds` times the scale."""
        await asyncio.sleep(max(0.0, seconds * self._scale))


@dataclass
class Services:
    """What the bot owns and closes."""

    db: Database
    handler: DebateHandler | None = None
    wiki: WikiOutbox | None = None
    room: DiscordRoom | None = None
    scheduler: AsyncIOScheduler = field(default_factory=AsyncIOScheduler)
    closers: list[object] = field(default_factory=list)


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
    """Build every adapter around the logged-in client, then resume what was running.

    The keyword parts replace the configured ones (tests: a scripted moderator, a fake
    debater, a movable clock, a seeded draw); left out, everything comes from `settings`.
    """
    db, strings = services.db, Strings(settings.LANGUAGE)
    clock = clock or SystemClock(settings.RETRY_WAIT_SCALE)
    if moderator is None:
        moderator = build_moderator(settings, db, asyncio.sleep)  # it scales waits itself
        services.closers.append(moderator)

    async def notify(debate_id: int, key: str, params: dict[str, str]) -> None:
        if services.room is not None and services.handler is not None:
            await services.room.notify(await services.handler.get(debate_id), key, params)

    wiki = WikiOutbox(
        db,
        build_wiki_backend(settings),
        root=settings.WIKI_ROOT,
        strings=strings,
        notify=notify,
        sleep=clock.sleep,
    )
    services.wiki = wiki
    room = services.room = DiscordRoom(bot, db, strings, wiki, clock)
    store = SqliteStore(db)
    configure_formats(settings)
    handler = services.handler = DebateHandler(
        store,
        moderator,
        _debaters(bot, settings, db, strings, debaters or {}),
        wiki,
        room,
        clock,
        rng or random.Random(),  # noqa: S311  # the speaking order, not a secret
        HandlerConfig(
            language=settings.LANGUAGE,
            max_rounds=settings.MAX_ROUNDS,
            proposal_ttl=timedelta(minutes=settings.PROPOSAL_TTL_MINUTES),
            retry_wait_scale=settings.RETRY_WAIT_SCALE,
            roster=settings.roster,
            format=settings.DEFAULT_FORMAT,
        ),
    )
    detection = _detection(bot, settings, moderator, store, clock)
    bot.front = DiscordFront(
        handler,
        detection,
        db,
        strings,
        approver_role_id=settings.APPROVER_ROLE_ID,
        debater_ids=frozenset(settings.AG_USER_IDS),
    )
    _schedule(services.scheduler, handler, db, settings)
    await wiki.start()
    resumed = await handler.resume_all()
    log.info("debate-room started; resumed debates %s", resumed)


def _schedule(
    scheduler: AsyncIOScheduler, handler: DebateHandler, db: Database, settings: Settings
) -> None:
    """The timers: unanswered cards expire, old Claude sessions are forgotten."""
    scheduler.add_job(
        _guarded(handler.expire_due), "interval", seconds=EXPIRY_CHECK_SECONDS, id="expire-cards"
    )
    schedule_session_expiry(scheduler, db, settings.CLAUDE_SESSION_TTL_DAYS)
    scheduler.start()


def _debaters(
    bot: DebateBot,
    settings: Settings,
    db: Database,
    strings: Strings,
    given: Mapping[Backend, Debater],
) -> dict[Backend, Debater]:
    """The given debaters; for the other backends the roster (PARTICIPANTS) uses, AG through
    the Discord relay (listening to every message), Claude and Gemini through their CLIs."""
    chosen = dict(given)
    wanted = {member.backend for member in settings.roster}
    if settings.DEFAULT_FORMAT == "adversarial":  # its Reconciler's backend may be one more
        wanted.add(settings.ADVERSARIAL_RECONCILER)
    if Backend.CLAUDE_CLI in wanted and Backend.CLAUDE_CLI not in chosen:
        chosen[Backend.CLAUDE_CLI] = _claude(settings, db)
    if Backend.GEMINI_CLI in wanted and Backend.GEMINI_CLI not in chosen:
        chosen[Backend.GEMINI_CLI] = GeminiCliDebater(
            db,
            binary=settings.GEMINI_CLI_BIN,
            system_prompt=participant_system_prompt(settings.LANGUAGE),
            model=settings.GEMINI_DEBATER_MODEL,
            timeout_s=settings.AG_TIMEOUT_SECONDS,
            workdir_root=Path(settings.DATA_DIR) / "gemini-cli",
            participant="gemini",
        )
    if Backend.AG_RELAY in wanted and Backend.AG_RELAY not in chosen:
        ag = AgRelayDebater(
            bot,
            db,
            ag_user_ids=settings.AG_USER_IDS,
            relay_channel_id=settings.AG_RELAY_CHANNEL_ID,
            timeout_s=settings.AG_TIMEOUT_SECONDS,
            quiet_s=settings.AG_QUIET_SECONDS,
            briefing=participant_system_prompt(settings.LANGUAGE),
            strings=strings,
        )
        bot.message_listeners.append(ag.on_message)
        bot.edit_listeners.append(ag.on_message_edit)
        chosen[Backend.AG_RELAY] = ag
    return chosen


def _claude(settings: Settings, db: Database) -> ClaudeCodeDebater:
    """The Claude seat: the CLI, resumed per debate, read-only tools."""
    return ClaudeCodeDebater(
        db,
        binary=settings.CLAUDE_BIN,
        system_prompt=participant_system_prompt(settings.LANGUAGE),
        model=settings.CLAUDE_MODEL,
        tools=settings.CLAUDE_TOOLS,
        timeout_s=settings.CLAUDE_TIMEOUT_SECONDS,
        max_retries=settings.CLAUDE_CODE_MAX_RETRIES,
        max_concurrency=settings.CLAUDE_MAX_CONCURRENCY,
        workdir_root=settings.DATA_DIR,
        workdir=settings.CLAUDE_WORKDIR,
    )


def _detection(
    bot: DebateBot, settings: Settings, moderator: Moderator, store: SqliteStore, clock: Clock
) -> DetectionHandler:
    """Detection in the watched channels, throttled as the settings say."""

    async def has_open_topic(channel_id: int, topic: str) -> bool:
        return topic.casefold() in {t.casefold() for t in await store.open_topics(channel_id)}

    return DetectionHandler(
        moderator,
        channels=frozenset(settings.DEBATE_CHANNEL_IDS),
        bot_user_id=bot.user.id if bot.user else 0,
        cooldown_s=settings.DETECT_COOLDOWN_SECONDS,
        min_new_messages=settings.DETECT_MIN_NEW_MESSAGES,
        min_confidence=settings.DETECT_MIN_CONFIDENCE,
        window_size=DETECTION_WINDOW,
        clock=clock,
        has_open_topic=has_open_topic,
    )


def _guarded(job: Callable[[], Awaitable[object]]) -> Callable[[], Awaitable[None]]:
    """A scheduler job that logs its failure instead of killing the scheduler's loop."""

    async def run() -> None:
        try:
            await job()
        except Exception:  # the scheduler job wrapper is a boundary
            log.exception("scheduled job failed")

    return run


async def shutdown(services: Services) -> None:
    """Stop the workers and the scheduler, and close the clients and the database."""
    with contextlib.suppress(Exception):
        services.scheduler.shutdown(wait=False)
    if services.handler is not None:
        await services.handler.aclose()
    if services.room is not None:
        await services.room.aclose()
    if services.wiki is not None:
        await services.wiki.aclose()
    for closer in services.closers:
        aclose = getattr(closer, "aclose", None)
        if aclose is not None:
            await aclose()
    # A cancelled turn may have left a shielded write (a relay record) queued on the write
    # lock: one empty transaction after it lets it land before the connection closes.
    async with services.db.transaction():
        pass
    await services.db.close()


async def serve(settings: Settings) -> None:
    """Open the database, log in, and run until the client closes."""
    db = await Database.open(str(settings.DATABASE_PATH))
    services = Services(db=db)

    async def ready(bot: DebateBot) -> None:
        await assemble(bot, settings, services)

    async def close() -> None:
        await shutdown(services)

    bot = DebateBot(on_ready_hook=ready, on_close_hook=close)
    token = settings.DISCORD_TOKEN.get_secret_value() if settings.DISCORD_TOKEN else ""
    closing: set[asyncio.Task[None]] = set()

    def stop() -> None:  # SIGTERM (docker stop) and SIGINT close the client cleanly
        if not closing:
            closing.add(asyncio.create_task(bot.close()))

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    async with bot:
        await bot.start(token)
    await asyncio.gather(*closing)


def run_bot(settings: Settings) -> int:
    """The `debate-room run` command."""
    logging.basicConfig(
        level=settings.LOG_LEVEL, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN)")  # noqa: TRY400  # no traceback
        return 1
    except KeyboardInterrupt:
        return 0
    return 0
