"""What the console is made of: its options, the moderator and the seats they choose, the banner."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from bot.compose import build_moderator, claude_debater, gemini_cli_debater
from bot.console.keyboard import Keyboard
from bot.console.seats import HumanDebater
from bot.console.text import MODERATOR_GREY
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Backend
from handlers.ports import Clock, Debater, Moderator
from handlers.rules_moderator import RulesModerator
from tools.checks import scrub
from tools.gemini.core import ModeratorError, StructuredModerator
from tools.store.db import Database
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


def database_path(settings: Settings, options: ConsoleOptions) -> Path:
    """The console's own database file."""
    return options.db or Path(settings.DATA_DIR) / "console.sqlite3"


def missing_binaries(settings: Settings, options: ConsoleOptions) -> list[str]:
    """The CLIs the chosen seats need but PATH does not have, as setting names and values."""
    missing = []
    if options.claude == "cli" and shutil.which(settings.CLAUDE_BIN) is None:
        missing.append(f"CLAUDE_BIN={settings.CLAUDE_BIN}")
    if options.ag == "gemini-cli" and shutil.which(settings.GEMINI_CLI_BIN) is None:
        missing.append(f"GEMINI_CLI_BIN={settings.GEMINI_CLI_BIN}")
    return missing


def build_console_moderator(
    settings: Settings, options: ConsoleOptions, db: Database, clock: Clock
) -> tuple[Moderator, bool]:
    """The moderator, and whether the `/debate` shortcut is offered (the rules never propose)."""
    rules = RulesModerator(Strings(settings.LANGUAGE))
    configured = settings.MODERATOR_BACKEND == "cli" or settings.GEMINI_API_KEY is not None
    if options.moderator == "rules" or not configured:
        return rules, True
    return build_moderator(settings, db, asyncio.sleep), False  # it scales waits itself


async def reachable_moderator(
    settings: Settings, options: ConsoleOptions, db: Database, clock: Clock
) -> tuple[Moderator, bool, str]:
    """As build_console_moderator, after one counted request to Gemini: when it fails, the
    rules and why (shown on screen: a person at a terminal does not read console.log)."""
    moderator, shortcut = build_console_moderator(settings, options, db, clock)
    if not isinstance(moderator, StructuredModerator):
        return moderator, shortcut, ""
    try:
        await moderator.ping()
    except ModeratorError as exc:
        await moderator.aclose()
        reason = scrub(str(exc)) or type(exc).__name__
        return RulesModerator(Strings(settings.LANGUAGE)), True, reason
    return moderator, shortcut, ""


def build_seats(
    settings: Settings,
    options: ConsoleOptions,
    db: Database,
    keyboard: Keyboard,
    console: Console,
    strings: Strings,
) -> dict[Backend, Debater]:
    """AG and Claude as the options say."""
    # Apart from the bot's folders: the console's debate ids start again at 1.
    root = Path(settings.DATA_DIR) / "console"
    seats: dict[Backend, Debater] = {}
    if options.ag == "gemini-cli":
        seats[Backend.AG_RELAY] = gemini_cli_debater(
            settings, db, options.ag_model, root / "gemini-cli-ag"
        )
    else:
        seats[Backend.AG_RELAY] = HumanDebater(AG, keyboard, console, strings)
    if options.claude == "human":
        seats[Backend.CLAUDE_CLI] = HumanDebater(CLAUDE, keyboard, console, strings)
    else:
        seats[Backend.CLAUDE_CLI] = claude_debater(settings, db, root)
    return seats


def print_banner(
    console: Console,
    t: Strings,
    settings: Settings,
    options: ConsoleOptions,
    seats: Mapping[Backend, Debater],
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
    ag = (
        t("console.banner_human")
        if isinstance(seats[Backend.AG_RELAY], HumanDebater)
        else t("console.banner_gemini_cli", model=options.ag_model)
    )
    claude = (
        t("console.banner_human")
        if isinstance(seats[Backend.CLAUDE_CLI], HumanDebater)
        else t("console.banner_claude_cli", binary=settings.CLAUDE_BIN)
    )
    where = (
        str(Path(settings.LOCAL_WIKI_DIR).absolute())
        if isinstance(wiki, LocalWiki)
        else str(settings.WIKI_PUBLIC_URL or settings.WIKIJS_URL)
    )
    body = t(
        "console.banner_body", moderator=mode, ag=ag, claude=claude, wiki=where, db=str(db_path)
    )
    title = Text(t("console.banner_title"))
    console.print(Panel(Text(body), title=title, border_style=MODERATOR_GREY))
    console.print(Text(t("console.help"), style=MODERATOR_GREY), soft_wrap=True)
    if shortcut:
        console.print(
            Text(t("console.shortcut_label"), style="bold " + MODERATOR_GREY), soft_wrap=True
        )
