"""The command lines of `debate-room console` and `debate-room demo` (argparse only, loads fast)."""

from __future__ import annotations

import argparse
import os
from dataclasses import fields
from pathlib import Path
from typing import Any

from handlers.core.i18n import LANGUAGES

TERMINAL_COMMANDS = ("console", "demo")


def _ids(text: str) -> frozenset[str]:
    return frozenset(filter(None, (part.strip() for part in text.split(","))))


# Each subcommand: its help, then each option's flag and argparse keywords (data, not code).
_PARSERS: dict[str, tuple[str, tuple[tuple[str, dict[str, Any]], ...]]] = {
    "console": (
        "the same engine in a terminal: type chat, approve, watch the debate",
        (
            (
                "--ag",
                {
                    "choices": ("human", "gemini-cli"),
                    "default": "human",
                    "help": "who answers for AG: a person at the keyboard, or the Gemini CLI",
                },
            ),
            (
                "--claude",
                {
                    "choices": ("cli", "human"),
                    "default": "cli",
                    "help": "who answers for Claude: the claude CLI, or a person",
                },
            ),
            (
                "--human",
                {
                    "type": _ids,
                    "default": frozenset(),
                    "help": "more seats a person types, by PARTICIPANTS id (e.g. claude,gemini)",
                },
            ),
            ("--name", {"default": "", "help": "the default speaker of typed chat lines"}),
            (
                "--db",
                {
                    "type": Path,
                    "default": None,
                    "help": "the console's database (default DATA_DIR/console.sqlite3)",
                },
            ),
            (
                "--moderator",
                {
                    "choices": ("auto", "rules"),
                    "default": "auto",
                    "help": "auto: Gemini when configured, else the rules; rules: always",
                },
            ),
            ("--ag-model", {"default": "pro", "help": "the Gemini CLI model for AG"}),
            (
                "--wiki",
                {
                    "choices": ("local", "settings"),
                    "default": "local",
                    "help": "local: LOCAL_WIKI_DIR; settings: Wiki.js when WIKIJS_URL is set",
                },
            ),
        ),
    ),
    "demo": (
        "replay a recorded debate (no tokens, no network)",
        (
            (
                "--pace",
                {
                    "type": float,
                    "default": 0.3,
                    "help": "seconds to pause before each recorded reply (default 0.3)",
                },
            ),
            (
                "--format",
                {
                    "choices": ("free", "boardroom", "adversarial", "ledger"),
                    "default": "free",
                    "help": "the debate format to replay a recording of (default free)",
                },
            ),
            (
                "--language",
                {
                    "choices": LANGUAGES,
                    "default": None,
                    "help": "the debate's language (default: LANGUAGE, else ko)",
                },
            ),
            (
                "--out",
                {
                    "type": Path,
                    "default": Path("data") / "demo",
                    "help": "folder for the demo's database and wiki pages (default data/demo)",
                },
            ),
        ),
    ),
}


def add_parsers(sub: Any) -> None:
    """Add the two terminal subcommands to the `debate-room` parser."""
    for command, (said, options) in _PARSERS.items():
        parser = sub.add_parser(command, help=said)
        for flag, keywords in options:
            parser.add_argument(flag, **keywords)


def run_terminal(args: argparse.Namespace) -> int:
    """Run `console` or `demo`; the demo reads no settings at all (no .env needed)."""
    from bot.settings_checks import require_writable  # noqa: PLC0415  # the command line loads fast: argparse only

    if args.command == "demo":
        from bot.demo.runner import run_demo  # noqa: PLC0415  # rich and the engine load here

        require_writable(args.out, "--out", "choose a folder you can write with --out")
        language = args.language or os.environ.get("LANGUAGE", "")
        return run_demo(
            out=args.out,
            pace_s=max(0.0, args.pace),
            format_name=args.format,
            language=language if language in LANGUAGES else "ko",
        )
    from bot.console.build import ConsoleOptions  # noqa: PLC0415  # the console's engine loads only for it
    from bot.console.session import run_console  # noqa: PLC0415  # the console's engine loads only for it
    from bot.settings import settings_from_option  # noqa: PLC0415  # the console's engine loads only for it

    options = ConsoleOptions(**{f.name: getattr(args, f.name) for f in fields(ConsoleOptions)})
    settings = settings_from_option(args.env_file)
    writable = "set it to a folder this user can write"
    require_writable(settings.DATA_DIR, "DATA_DIR", writable)  # its log, database and sessions
    if args.db is not None:
        require_writable(args.db.parent, "--db", "choose a file in a folder you can write")
    if args.wiki == "local" or not settings.WIKIJS_URL:
        require_writable(settings.LOCAL_WIKI_DIR, "LOCAL_WIKI_DIR", writable)
    return run_console(settings, options)
