"""What the console is made of: its options, the moderator and the seats they choose, the banner."""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from bot.console.keyboard import Keyboard
from bot.console.room.out import MODERATOR_GREY
from bot.console.seats import HumanDebater, Typed
from bot.root.engine import build_moderator, cli_debater, gemini_cli_debater, wanted_backends
from bot.root.tables import Tables
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import Backend, Participant
from handlers.ports import Debater, Moderator
from handlers.rules_moderator import RulesModerator
from tools.checks import scrub
from tools.gemini.core import GeminiModerator, ModeratorError
from tools.wiki.backends import LocalWiki, WikiBackend


@dataclass(frozen=True)
class ConsoleOptions:
    """The command line of `debate-room console`."""

    ag: str = "human"  # human | gemini-cli
    claude: str = "cli"  # cli | human
    name: str = ""  # the default speaker of chat lines
    db: Path | None = None  # default: DATA_DIR/console.sqlite3 (never the bot's database)
    moderator: str = "auto"  # auto (Gemini when configured) | rules
    ag_model: str = "pro"  # the Gemini CLI's model for the AG seat
    wiki: str = "local"  # local (LOCAL_WIKI_DIR) | settings (Wiki.js when WIKIJS_URL is set)
    human: frozenset[str] = frozenset()  # more seats typed here, by PARTICIPANTS id


def database_path(settings: Settings, options: ConsoleOptions) -> Path:
    """The console's own database file."""
    return options.db or Path(settings.DATA_DIR) / "console.sqlite3"


def typed_seats(options: ConsoleOptions) -> Typed:
    """The seats a person types: `--human`'s, and AG's or Claude's when its option is human."""
    backends = {Backend.AG_RELAY} if options.ag == "human" else set()
    if options.claude == "human":
        backends.add(Backend.CLAUDE_CLI)
    return Typed(options.human, frozenset(backends))


def missing_binaries(settings: Settings, options: ConsoleOptions) -> list[str]:
    """The CLIs the machine seats need but PATH does not have, as setting names and values."""
    machines = wanted_backends(settings) - typed_seats(options).backends
    needed = {
        Backend.CLAUDE_CLI: ("CLAUDE_BIN", settings.CLAUDE_BIN),
        Backend.AG_RELAY: ("GEMINI_CLI_BIN", settings.GEMINI_CLI_BIN),
        Backend.GEMINI_CLI: ("GEMINI_CLI_BIN", settings.GEMINI_CLI_BIN),
    }
    found = {needed[backend] for backend in machines}
    return sorted(f"{name}={binary}" for name, binary in found if shutil.which(binary) is None)


async def reachable_moderator(
    settings: Settings, options: ConsoleOptions, tables: Tables
) -> tuple[Moderator, bool, str]:
    """The moderator (Gemini when configured, after one counted request to it), whether the
    `/debate` shortcut is offered (the rules never propose), and why a configured Gemini is
    not the moderator (shown on screen: a person at a terminal does not read console.log)."""
    rules = RulesModerator(Strings(settings.LANGUAGE))
    configured = settings.MODERATOR_BACKEND == "cli" or settings.GEMINI_API_KEY is not None
    if options.moderator == "rules" or not configured:
        return rules, True, ""
    moderator = build_moderator(settings, tables, asyncio.sleep)  # it scales waits itself
    if isinstance(moderator, GeminiModerator):
        try:
            await moderator.ping()
        except ModeratorError as exc:
            await moderator.aclose()
            return rules, True, scrub(str(exc)) or type(exc).__name__
    return moderator, False, ""


def build_seats(
    settings: Settings,
    options: ConsoleOptions,
    tables: Tables,
    keyboard: Keyboard,
    console: Console,
    strings: Strings,
) -> dict[Backend, Debater]:
    """Each backend PARTICIPANTS uses: its typed seats at the keyboard, the rest by its CLI."""
    # Apart from the bot's folders: the console's debate ids start again at 1.
    root = Path(settings.DATA_DIR) / "console"
    typed = typed_seats(options)
    seats: dict[Backend, Debater] = {}
    for backend in wanted_backends(settings):
        typed_only = backend in typed.backends
        machine = None if typed_only else _machine(backend, settings, options, tables, root)
        seats[backend] = HumanDebater(backend, typed, keyboard, console, strings, machine)
    return seats


def _machine(
    backend: Backend, settings: Settings, options: ConsoleOptions, tables: Tables, root: Path
) -> Debater:
    """The CLI that answers a backend's seats no person types."""
    if backend is Backend.AG_RELAY:  # no relay in a terminal: the Gemini CLI stands in
        return gemini_cli_debater(settings, tables, options.ag_model, root / "gemini-cli-ag")
    return cli_debater(backend, settings, tables, root)


def _how(t: Strings, settings: Settings, options: ConsoleOptions, member: Participant) -> str:
    """Who answers for a seat, as the banner says it."""
    if typed_seats(options)(member.id, member.backend):
        return t("console.banner_human")
    if member.backend is Backend.CLAUDE_CLI:
        return t("console.banner_claude_cli", binary=settings.CLAUDE_BIN)
    model = (
        options.ag_model if member.backend is Backend.AG_RELAY else settings.GEMINI_DEBATER_MODEL
    )
    return t("console.banner_gemini_cli", model=model)


def print_banner(
    console: Console,
    t: Strings,
    settings: Settings,
    options: ConsoleOptions,
    shortcut: bool,
    db_path: Path,
    wiki: WikiBackend,
    unreachable: str = "",
) -> None:
    """What runs where, and the keys; `unreachable`: why Gemini is not the moderator."""
    if unreachable:
        mode = t("console.banner_mode_unreachable", reason=unreachable)
    elif shortcut:
        mode = t("console.banner_mode_rules")
    else:
        mode = t(f"console.banner_mode_{settings.MODERATOR_BACKEND}", model=settings.GEMINI_MODEL)
    seats = "\n".join(f"{m.name}: {_how(t, settings, options, m)}" for m in settings.roster)
    where = (
        str(Path(settings.LOCAL_WIKI_DIR).absolute())
        if isinstance(wiki, LocalWiki)
        else str(settings.WIKI_PUBLIC_URL or settings.WIKIJS_URL)
    )
    body = t("console.banner_body", moderator=mode, seats=seats, wiki=where, db=str(db_path))
    title = Text(t("console.banner_title"))
    console.print(Panel(Text(body), title=title, border_style=MODERATOR_GREY))
    console.print(Text(t("console.help"), style=MODERATOR_GREY), soft_wrap=True)
    if shortcut:
        console.print(
            Text(t("console.shortcut_label"), style="bold " + MODERATOR_GREY), soft_wrap=True
        )
