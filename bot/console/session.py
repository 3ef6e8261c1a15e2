"""`debate-room console`: the same engine in a terminal, no Discord needed; the moderator and
seats chosen (bot/console/build.py), the engine built around a ConsoleRoom, lines to ConsoleApp."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from rich.console import Console

from bot.console.app import CONSOLE_CHANNEL, ConsoleApp
from bot.console.build import (
    ConsoleOptions,
    build_seats,
    database_path,
    missing_binaries,
    print_banner,
    reachable_moderator,
    typed_seats,
)
from bot.console.keyboard import Keyboard, StdinLines
from bot.console.room import ConsoleRoom
from bot.console.seats import HumanDebater, People
from bot.root.engine import (
    Engine,
    SystemClock,
    build_detection,
    build_engine,
    build_wiki_backend,
    detection_limits,
    handler_config,
)
from bot.root.tables import Tables
from bot.settings import Settings, SettingsError
from handlers.core.formats.boardroom.advisor import on_machines
from handlers.core.i18n import Strings
from handlers.core.model import Backend
from handlers.ports import Clock, Debater, Moderator
from handlers.rules_moderator import RulesModerator
from tools.wiki.backends import LocalWiki, WikiBackend

log = logging.getLogger(__name__)

WIKI_DRAIN_S = 10.0


async def console_session(
    settings: Settings,
    options: ConsoleOptions,
    console: Console,
    keyboard: Keyboard,
    clock: Clock,
    *,
    moderator: Moderator | None = None,
    seats: Mapping[Backend, Debater] | None = None,  # instead of the options' seats
    rng: random.Random | None = None,
    install_signals: bool = False,
) -> int:
    """Run the console until the input ends or the person quits; tests inject the parts."""
    tables = await Tables.open(str(database_path(settings, options)))
    session = _Session(settings, options, console, keyboard, clock, tables)
    try:
        shortcut = isinstance(moderator, RulesModerator)
        if moderator is None:
            moderator, shortcut, session.unreachable = await reachable_moderator(
                settings, options, tables
            )
            session.closers.append(moderator)
        built = build_seats(settings, options, tables, keyboard, console, session.strings)
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
        tables: Tables,
    ) -> None:
        self.settings, self.options, self.console = settings, options, console
        self.keyboard, self.clock, self.tables = keyboard, clock, tables
        self.strings = Strings(settings.LANGUAGE)
        self.people = People(options.name or self.strings("console.default_name"))
        self.closers: list[object] = []
        self.engine: Engine[ConsoleRoom] | None = None
        self.unreachable = ""  # why Gemini, though configured, is not the moderator

    async def assemble(
        self,
        moderator: Moderator,
        seats: dict[Backend, Debater],
        rng: random.Random | None,
        shortcut: bool,
    ) -> ConsoleApp:
        """The wiki, the room, the engine and detection; then the banner."""
        settings, path = self.settings, database_path(self.settings, self.options)
        backend = self._backend()
        typed = typed_seats(self.options)  # a backend a test replaced is not typed here
        typed = replace(
            typed,
            backends=frozenset(b for b in typed.backends if isinstance(seats.get(b), HumanDebater)),
        )

        room = ConsoleRoom(
            self.console,
            self.strings,
            self.clock,
            messages=self.tables.room_messages(),
            typed=typed,
            names=self.people.names,
            rules_only=shortcut,
            export_dir=Path(path).parent,
        )

        self.engine = engine = build_engine(
            self.tables,
            strings=self.strings,
            backend=backend,
            wiki_root=settings.WIKI_ROOT,
            room=room,
            moderator=moderator,
            debaters=seats,
            clock=self.clock,
            rng=rng,
            # no poll at a stalemate (a terminal has no one to vote)
            config=replace(
                handler_config(settings),
                poll_hours=0,
                archive_hours=0,
                format_options=on_machines(settings.format_options, typed.backends),
                rules_chosen=shortcut and not self.unreachable,
            ),
        )
        print_banner(
            self.console,
            self.strings,
            settings,
            self.options,
            shortcut,
            path,
            backend,
            self.unreachable,
        )
        await engine.wiki.start()
        engine.timers.start(engine.fire_due)  # a card's expiry, a usage limit's reset
        detection = build_detection(
            moderator,
            engine.store,
            self.clock,
            channels=(CONSOLE_CHANNEL,),
            bot_user_id=0,
            limits=detection_limits(settings),
        )
        return ConsoleApp(
            engine.handler,
            detection,
            engine.store,
            self.keyboard,
            self.console,
            self.strings,
            self.clock,
            self.people,
            shortcut=shortcut,
            db_path=str(path),
            records=engine.tables.seat_records(),
            page_url=engine.wiki.page_url,
        )

    def _backend(self) -> WikiBackend:
        if self.options.wiki == "settings":
            return build_wiki_backend(self.settings)
        return LocalWiki(self.settings.LOCAL_WIKI_DIR)

    async def close(self) -> None:
        """Stop the engine, let the wiki land its last writes (briefly), close everything."""
        if self.engine is not None:
            await self.engine.timers.aclose()
            await self.engine.handler.aclose()
            # What does not land in time stays queued in SQLite for the next start.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WIKI_DRAIN_S):
                    await self.engine.wiki.drained()
            await self.engine.wiki.aclose()
        for closer in self.closers:
            aclose = getattr(closer, "aclose", None)
            if aclose is not None:
                await aclose()
        await self.tables.close()


def run_console(settings: Settings, options: ConsoleOptions) -> int:
    """The `debate-room console` command."""
    if unknown := options.human - {member.id for member in settings.roster}:
        raise SettingsError(f"--human: no seat {', '.join(sorted(unknown))} in PARTICIPANTS")
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
