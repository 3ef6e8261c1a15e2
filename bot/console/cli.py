"""The command lines of `debate-room console` and `debate-room demo` (argparse only, loads fast)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from handlers.core.i18n import LANGUAGES

TERMINAL_COMMANDS = ("console", "demo")


def add_parsers(sub: Any) -> None:
    """Add the two terminal subcommands to the `debate-room` parser."""
    _console_parser(sub)
    _demo_parser(sub)


def _console_parser(sub: Any) -> None:
    console = sub.add_parser(
        "console", help="the same engine in a terminal: type chat, approve, watch the debate"
    )
    console.add_argument(
        "--ag",
        choices=("human", "gemini-cli"),
        default="human",
        help="who answers for AG: a person at the keyboard, or the Gemini CLI",
    )
    console.add_argument(
        "--claude",
        choices=("cli", "human"),
        default="cli",
        help="who answers for Claude: the claude CLI, or a person",
    )
    console.add_argument(
        "--human",
        default="",
        help="more seats a person types, by PARTICIPANTS id (comma-separated: claude,gemini)",
    )
    console.add_argument("--name", default="", help="the default speaker of typed chat lines")
    console.add_argument(
        "--db",
        type=Path,
        default=None,
        help="the console's database (default DATA_DIR/console.sqlite3)",
    )
    console.add_argument(
        "--moderator",
        choices=("auto", "rules"),
        default="auto",
        help="auto: Gemini when configured, else the rules; rules: always",
    )
    console.add_argument("--ag-model", default="pro", help="the Gemini CLI model for AG")
    console.add_argument(
        "--wiki",
        choices=("local", "settings"),
        default="local",
        help="local: LOCAL_WIKI_DIR; settings: Wiki.js when WIKIJS_URL is set",
    )


def _demo_parser(sub: Any) -> None:
    demo = sub.add_parser("demo", help="replay a recorded debate (no tokens, no network)")
    demo.add_argument(
        "--pace",
        type=float,
        default=0.3,
        help="seconds to pause before each recorded reply (default 0.3)",
    )
    demo.add_argument(
        "--format",
        choices=("free", "boardroom", "adversarial", "ledger"),
        default="free",
        help="the debate format to replay a recording of (default free)",
    )
    demo.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="the debate's language (default: LANGUAGE when it is one of these, else ko)",
    )
    demo.add_argument(
        "--out",
        type=Path,
        default=Path("data") / "demo",
        help="folder for the demo's database and wiki pages (default data/demo)",
    )


def run_terminal(args: argparse.Namespace) -> int:
    """Run `console` or `demo`; the demo reads no settings at all (no .env needed)."""
    from bot.folders import require_writable  # noqa: PLC0415

    if args.command == "demo":
        from bot.demo.runner import run_demo  # noqa: PLC0415  # rich and the engine load here

        require_writable(args.out, "--out", "choose a folder you can write with --out")
        language = args.language or os.environ.get("LANGUAGE", "ko")
        return run_demo(out=args.out, pace_s=max(0.0, args.pace), format_name=args.format,
                        language=language if language in LANGUAGES else "ko")  # fmt: skip
    from bot.console.build import ConsoleOptions  # noqa: PLC0415
    from bot.console.session import run_console  # noqa: PLC0415
    from bot.settings import settings_from_option  # noqa: PLC0415

    options = ConsoleOptions(
        ag=args.ag,
        claude=args.claude,
        name=args.name,
        human=frozenset(filter(None, (h.strip() for h in args.human.split(",")))),
        db=args.db,
        moderator=args.moderator,
        ag_model=args.ag_model,
        wiki=args.wiki,
    )
    settings = settings_from_option(args.env_file)
    writable = "set it to a folder this user can write"
    require_writable(settings.DATA_DIR, "DATA_DIR", writable)  # its log, database and sessions
    if args.db is not None:
        require_writable(args.db.parent, "--db", "choose a file in a folder you can write")
    if args.wiki == "local" or not settings.WIKIJS_URL:
        require_writable(settings.LOCAL_WIKI_DIR, "LOCAL_WIKI_DIR", writable)
    return run_console(settings, options)
