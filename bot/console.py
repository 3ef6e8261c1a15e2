"""`debate-room console`: the same engine in a terminal, no Discord needed.

The composition root of the console: it builds the store, the moderator (Gemini through the
API or the CLI when configured, else the rule-based one), the two seats (AG typed by a person
or answered by the Gemini CLI; Claude through its CLI or typed by a person), the local wiki
and the ConsoleRoom, then hands typed lines to ConsoleApp.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import sys
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path

from rich.console import Console

from bot.console_app import CONSOLE_CHANNEL, ConsoleApp
from bot.console_build import (
    ConsoleOptions,
    build_console_moderator,
    build_seats,
    database_path,
    missing_binaries,
    print_banner,
)
from bot.console_input import Keyboard, StdinLines
from bot.console_room import ConsoleRoom
from bot.console_seats import HumanDebater, People
from bot.i18n import Strings
from bot.settings import Settings, SettingsError
from handlers.debate_handler import DebateHandler, HandlerConfig
from handlers.detection import DetectionHandler
from handlers.model import Seat
from handlers.ports import Clock, Debater, Moderator
from handlers.rules_moderator import RulesModerator
from tools.db import Database
from tools.store import SqliteStore
from tools.wiki_helper import LocalWiki, WikiBackend, WikiOutbox, build_wiki_backend

log = logging.getLogger(__name__)

CONSOLE_WINDOW = 20
WIKI_DRAIN_S = 10.0


async def console_session(
    settings: Settings,
    options: ConsoleOptions,
    console: Console,
    keyboard: Keyboard,
    clock: Clock,
    *,
    moderator: Moderator | None = None,
    seats: Mapping[Seat, Debater] | None = None,
    rng: random.Random | None = None,
    install_signals: bool = False,
) -> int:
    """Run the console until the input ends or the person quits; tests inject the parts.

    `seats` replaces the seats the options would build (a test's fake Claude, say).
    """
    db = await Database.open(str(database_path(settings, options)))
    session = _Session(settings, options, console, keyboard, clock, db)
    try:
        shortcut = isinstance(moderator, RulesModerator)
        if moderator is None:
            moderator, shortcut = build_console_moderator(settings, options, db, clock)
            session.closers.append(moderator)
        built = build_seats(settings, options, db, keyboard, console, session.strings)
        app = await session.assemble(moderator, {**built, **(seats or {})}, rng, shortcut)
        if install_signals:
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, app.interrupt)
        return await app.run()
    finally:
        if install_signals:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
        await session.close()


class _Session:
    """The parts of one console run, built around the moderator and seats, closed together."""

    def __init__(
        self,
        settings: Settings,
        options: ConsoleOptions,
        console: Console,
        keyboard: Keyboard,
        clock: Clock,
        db: Database,
    ) -> None:
        self.settings, self.options, self.console = settings, options, console
        self.keyboard, self.clock, self.db = keyboard, clock, db
        self.strings = Strings(settings.LANGUAGE)
        self.people = People(options.name or self.strings("console.default_name"))
        self.closers: list[object] = []
        self.handler: DebateHandler | None = None
        self.wiki: WikiOutbox | None = None
        self.room: ConsoleRoom | None = None

    async def assemble(
        self,
        moderator: Moderator,
        seats: dict[Seat, Debater],
        rng: random.Random | None,
        shortcut: bool,
    ) -> ConsoleApp:
        """The wiki, the room, the engine and detection; then the banner."""
        settings, path = self.settings, database_path(self.settings, self.options)
        backend = self._backend()
        self.wiki = wiki = WikiOutbox(
            self.db, backend, root=settings.WIKI_ROOT, strings=self.strings,
            notify=self._notify, sleep=self.clock.sleep,
        )  # fmt: skip
        humans = frozenset(seat for seat, d in seats.items() if isinstance(d, HumanDebater))
        self.room = ConsoleRoom(
            self.console, self.strings, wiki, self.clock, db=self.db, human_seats=humans,
            names=self.people.names, rules_only=shortcut,
        )  # fmt: skip
        store = SqliteStore(self.db)
        config = HandlerConfig(
            language=settings.LANGUAGE, max_rounds=settings.MAX_ROUNDS,
            proposal_ttl=timedelta(minutes=settings.PROPOSAL_TTL_MINUTES),
            retry_wait_scale=settings.RETRY_WAIT_SCALE,
        )  # fmt: skip
        order = rng or random.Random()  # noqa: S311  # the speaking order, not a secret
        self.handler = DebateHandler(
            store, moderator, seats, wiki, self.room, self.clock, order, config
        )
        print_banner(self.console, self.strings, settings, self.options, seats, shortcut, path,
                     backend)  # fmt: skip
        await wiki.start()
        return ConsoleApp(
            self.handler, self._detection(moderator, store), store, self.keyboard, self.console,
            self.strings, self.clock, self.people, shortcut=shortcut, db_path=str(path),
        )  # fmt: skip

    def _backend(self) -> WikiBackend:
        if self.options.wiki == "settings":
            return build_wiki_backend(self.settings)
        return LocalWiki(self.settings.LOCAL_WIKI_DIR)

    def _detection(self, moderator: Moderator, store: SqliteStore) -> DetectionHandler:
        async def has_open_topic(channel_id: int, topic: str) -> bool:
            return topic.casefold() in {t.casefold() for t in await store.open_topics(channel_id)}

        settings = self.settings
        return DetectionHandler(
            moderator, channels=(CONSOLE_CHANNEL,), bot_user_id=0,
            cooldown_s=settings.DETECT_COOLDOWN_SECONDS,
            min_new_messages=settings.DETECT_MIN_NEW_MESSAGES,
            min_confidence=settings.DETECT_MIN_CONFIDENCE, window_size=CONSOLE_WINDOW,
            clock=self.clock, has_open_topic=has_open_topic,
        )  # fmt: skip

    async def _notify(self, debate_id: int, key: str, params: dict[str, str]) -> None:
        """The wiki outbox's lines (delays, a person's edit kept) in the room."""
        if self.room is not None and self.handler is not None:
            await self.room.notify(await self.handler.get(debate_id), key, params)

    async def close(self) -> None:
        """Stop the engine, let the wiki land its last writes (briefly), close everything."""
        if self.handler is not None:
            await self.handler.aclose()
        if self.wiki is not None:
            # What does not land in time stays queued in SQLite for the next start.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WIKI_DRAIN_S):
                    await self.wiki.drained()
            await self.wiki.aclose()
        for closer in self.closers:
            aclose = getattr(closer, "aclose", None)
            if aclose is not None:
                await aclose()
        await self.db.close()


def run_console(settings: Settings, options: ConsoleOptions) -> int:
    """The `debate-room console` command."""
    missing = missing_binaries(settings, options)
    if missing:
        raise SettingsError(
            f"not found on PATH: {', '.join(missing)} (or use --ag human / --claude human)"
        )
    log_file = Path(settings.DATA_DIR) / "console.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    # The screen belongs to the debate: the engine's log lines go to a file.
    logging.basicConfig(
        filename=log_file,
        level=settings.LOG_LEVEL,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.app import SystemClock  # noqa: PLC0415  # the bot's wall clock, shared

    clock = SystemClock(settings.RETRY_WAIT_SCALE)
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(
            console_session(
                settings,
                options,
                Console(highlight=False),
                Keyboard(StdinLines(), paced=not _is_terminal()),
                clock,
                install_signals=True,
            )
        )
    return 130


def _is_terminal() -> bool:
    """True when a person types at a terminal; False for a script piped or redirected in."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):  # closed or replaced stdin
        return False
