"""The `debate-room` command: run the bot, or doctor / console / demo / verify."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.console.cli import add_parser as add_console
from bot.console.cli import run_console_command
from bot.demo.cli import add_parser as add_demo
from bot.demo.cli import run_demo_command
from bot.required import missing_for_run
from bot.settings import Settings, SettingsError, one_setting, settings_from_option
from bot.verify import add_parser as add_verify
from bot.verify import run_verify_command
from tools.store.db import DatabaseError

if TYPE_CHECKING:
    from bot.doctor import CheckFn

EXIT_SETTINGS = 2
DEFAULT_PING_WAIT_S = 120.0  # how long `doctor --ping-relay` waits for AG unless told
MAX_PING_WAIT_S = 3600.0
SERVERS = (None, "run", "worker")  # the long-running commands (none named: `run`)
WAITING = (
    "waiting instead of exiting (WAIT_ON_BAD_SETTINGS): fix the settings above in .env, then "
    "run `docker compose up -d` again, which recreates this container with them"
)
# The terminal's commands: each reads its own settings (the demo none at all).
TERMINALS: dict[str, Callable[[argparse.Namespace], int]] = {
    "console": run_console_command,
    "demo": run_demo_command,
    "verify": run_verify_command,
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="debate-room",
        description="회의실 — AI debates moderated in Discord, written to a wiki.",
    )
    parser.add_argument("--env-file", default=None, help="settings file (default .env)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help="run the Discord bot (the default)")
    sub.add_parser(
        "worker",
        help="run debates for the `run` process, over Discord's REST API (needs DATABASE_URL)",
    )
    _add_doctor(sub.add_parser("doctor", help="check every configured outside part, one line each"))
    add_console(sub)
    add_demo(sub)
    add_verify(sub)
    sub.add_parser("help", help="show this help")
    for command in sub.choices.values():  # `debate-room doctor --env-file x` works too
        command.add_argument(
            "--env-file", default=argparse.SUPPRESS, help="settings file (default .env)"
        )
    return parser


def _add_doctor(doctor: argparse.ArgumentParser) -> None:
    """The doctor's opt-in check: it posts in a channel people may read, and waits."""
    doctor.add_argument(
        "--ping-relay",
        action="store_true",
        help="also post a tagged ping for AG in the relay channel and wait for AG's answer "
        "(docs/ag-relay.md); the ping is deleted afterwards",
    )
    doctor.add_argument(
        "--relay-channel",
        type=int,
        default=None,
        metavar="ID",
        help="with --ping-relay: the channel to ping (default AG_RELAY_CHANNEL_ID)",
    )
    doctor.add_argument(
        "--relay-wait",
        type=_positive_seconds,
        default=DEFAULT_PING_WAIT_S,
        metavar="SECONDS",
        help=f"with --ping-relay: how long to wait for AG (default {DEFAULT_PING_WAIT_S:g})",
    )


def _positive_seconds(value: str) -> float:
    seconds = float(value)
    if not 0 < seconds <= MAX_PING_WAIT_S:
        raise argparse.ArgumentTypeError(f"between 0 and {MAX_PING_WAIT_S:g} seconds")
    return seconds


def doctor_checks(args: argparse.Namespace) -> list[CheckFn]:
    """Every doctor check, and the relay ping last when asked for (it waits the longest)."""
    from bot.discord.ag.ping import RelayPing  # noqa: PLC0415  # discord.py loads only when used
    from bot.doctor import all_checks  # noqa: PLC0415  # keeps --help fast

    checks = all_checks()
    if args.ping_relay:
        checks.append(RelayPing(args.relay_wait, channel_id=args.relay_channel))
    return checks


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script and of `python -m bot`."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "help":
        parser.print_help()
        return 0
    try:
        if args.command in TERMINALS:
            return TERMINALS[args.command](args)
        settings = settings_from_option(args.env_file)
        if args.command == "doctor":
            from bot.doctor import run_doctor  # noqa: PLC0415  # keeps --help fast

            return asyncio.run(run_doctor(settings, doctor_checks(args)))
        _require_run_settings(settings)
        from bot.root.discord_app import run_command, serve, serve_worker  # noqa: PLC0415  # discord.py loads only to run

        return run_command(settings, serve_worker if args.command == "worker" else serve)
    except SettingsError as exc:
        for line in (*_no_env_file(args), *exc.lines):  # one line per setting, no traceback
            print(f"debate-room: {line}", file=sys.stderr)  # noqa: T201  # before logging is set up: one line per setting
        if args.command in SERVERS and _waits_on_bad_settings():
            return _wait_for_new_settings()
        return EXIT_SETTINGS
    except DatabaseError as exc:
        print(f"debate-room: {exc}", file=sys.stderr)  # noqa: T201  # one line, no traceback
        return EXIT_SETTINGS


def _no_env_file(args: argparse.Namespace) -> tuple[str, ...]:
    """Why the settings may be missing: no `.env` where the command ran (only said when the
    settings are refused: in Docker they come from the environment, with no file at all)."""
    if args.env_file is not None or args.command in TERMINALS or Path(".env").is_file():
        return ()
    here = Path.cwd()
    return (
        f"no .env in {here} (settings come from the environment only); "
        "copy .env.example to .env and fill it in, or pass --env-file",
    )


def _waits_on_bad_settings() -> bool:
    """WAIT_ON_BAD_SETTINGS from the environment (the settings themselves were refused, so
    it is read alone); a value it cannot read is no."""
    value = os.environ.get("WAIT_ON_BAD_SETTINGS", "").strip()
    try:
        return bool(value) and bool(one_setting("WAIT_ON_BAD_SETTINGS", value))
    except SettingsError:
        return False


def _wait_for_new_settings() -> int:
    """Say what to do, then block until the process is told to stop (exit 0): a container
    that exits on a blank key only loops under its restart policy, and a running process
    never sees a changed .env."""
    stops = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)  # before saying so: a stop is never missed
    print(f"debate-room: {WAITING}", file=sys.stderr, flush=True)  # noqa: T201  # no logging yet
    signal.sigwait(stops)
    return 0


def _require_run_settings(settings: Settings) -> None:
    missing = missing_for_run(settings)
    if missing:
        raise SettingsError(*missing)


if __name__ == "__main__":
    sys.exit(main())
