"""The command line of `debate-room console` (argparse only, loads fast); the demo has its own
(bot/demo/cli.py)."""

from __future__ import annotations

import argparse
from dataclasses import fields
from pathlib import Path
from typing import Any


def _ids(text: str) -> frozenset[str]:
    return frozenset(filter(None, (part.strip() for part in text.split(","))))


_HELP = "the same engine in a terminal: type chat, approve, watch the debate"
# Each option's flag and argparse keywords (data, not code).
_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
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
)


def add_parser(sub: Any) -> None:
    """Add `console` to the `debate-room` parser."""
    parser = sub.add_parser("console", help=_HELP)
    for flag, keywords in _OPTIONS:
        parser.add_argument(flag, **keywords)


def run_console_command(args: argparse.Namespace) -> int:
    """Run the console with its settings (checked first: its folders must be writable)."""
    from bot.console.build import ConsoleOptions  # noqa: PLC0415  # the console's engine loads only for it
    from bot.console.session import run_console  # noqa: PLC0415  # the console's engine loads only for it
    from bot.settings import settings_from_option  # noqa: PLC0415  # the console's engine loads only for it
    from bot.settings_checks import require_writable  # noqa: PLC0415  # the command line loads fast: argparse only

    options = ConsoleOptions(**{f.name: getattr(args, f.name) for f in fields(ConsoleOptions)})
    settings = settings_from_option(args.env_file)
    writable = "set it to a folder this user can write"
    require_writable(settings.DATA_DIR, "DATA_DIR", writable)  # its log, database and sessions
    if args.db is not None:
        require_writable(args.db.parent, "--db", "choose a file in a folder you can write")
    if args.wiki == "local" or not settings.WIKIJS_URL:
        require_writable(settings.LOCAL_WIKI_DIR, "LOCAL_WIKI_DIR", writable)
    return run_console(settings, options)
