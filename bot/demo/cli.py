"""The command line of `debate-room demo` (argparse and the format registry only, loads fast).
The demo reads no settings file: no .env is needed (only LANGUAGE, from the environment)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from handlers.core.formats import FORMATS
from handlers.core.i18n import LANGUAGES

_HELP = "replay a recorded debate (no tokens, no network)"
# Each option's flag and argparse keywords (data, not code).
_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
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
            "choices": tuple(FORMATS),  # every registered format brings its recordings
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
)


def add_parser(sub: Any) -> None:
    """Add `demo` to the `debate-room` parser."""
    parser = sub.add_parser("demo", help=_HELP)
    for flag, keywords in _OPTIONS:
        parser.add_argument(flag, **keywords)


def run_demo_command(args: argparse.Namespace) -> int:
    """Replay the chosen format's recording in the chosen language."""
    from bot.demo.runner import run_demo  # noqa: PLC0415  # rich and the engine load here
    from bot.settings_checks import require_writable  # noqa: PLC0415  # the command line loads fast

    language = args.language or _language_setting()  # refused before anything is written
    require_writable(args.out, "--out", "choose a folder you can write with --out")
    return run_demo(
        out=args.out, pace_s=max(0.0, args.pace), format_name=args.format, language=language
    )


def _language_setting() -> str:
    """LANGUAGE from the environment, read as `run` reads it (`LANGUAGE=fr` is refused with
    run's own line, exit 2), else ko."""
    from bot.settings import one_setting  # noqa: PLC0415  # pydantic loads only to run

    value = os.environ.get("LANGUAGE", "").strip()
    return str(one_setting("LANGUAGE", value)) if value else "ko"
