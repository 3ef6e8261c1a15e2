"""`debate-room doctor`: one line per configured outside part, ok / missing / failing."""

from __future__ import annotations

import asyncio
import ipaddress
import shutil
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from urllib.parse import urlsplit

from bot.discord.doctor import check_discord
from bot.required import WITHOUT_AG, missing_for_run
from bot.root.engine import build_moderator, build_wiki_backend
from bot.root.tables import Tables
from bot.settings import Settings
from handlers.core.model import Backend
from tools.checks import Check, Status
from tools.claude.doctor import check_claude_cli, check_node_version
from tools.gemini.core import ModeratorError
from tools.pinned_clis import GEMINI_PACKAGE, install_command
from tools.store.db import DatabaseError
from tools.store.schema import schema_versions
from tools.wiki.backends import WikiError
from tools.wiki.local_files import cannot_write
from tools.wiki.slug import SlugError, check_root

__all__ = ["Check", "CheckFn", "Status", "all_checks", "run_doctor"]

CheckFn = Callable[[Settings], Awaitable[Check]]


EXIT_MISSING = 2  # as `debate-room run` exits when a setting it needs is missing
SETTINGS = "settings"
IN_MEMORY = ":memory:"  # an SQLite database that never touches the disk
PART = "moderator"
# Since 2026-06-18 the Gemini CLI refuses Google AI Pro, Ultra and free personal accounts
# (IneligibleTierError): an API key, or a Workspace account on a paid Code Assist edition.
GEMINI_CLI_ACCOUNTS = (
    "the Gemini CLI serves GEMINI_API_KEY or a Gemini Code Assist Standard/Enterprise account "
    "only (since 2026-06-18, not Google AI Pro, Ultra or free personal accounts)"
)


async def check_settings(settings: Settings) -> Check:
    """The settings loaded (they did, or we would not be here), and those `run` needs are set."""
    missing = missing_for_run(settings)
    if missing:
        names = ", ".join(line.split(" ", 1)[0] for line in missing)
        return Check(SETTINGS, Status.FAILING, f"`run` would not start: {names}", tuple(missing))
    wiki = "Wiki.js" if settings.WIKIJS_URL else f"local wiki in {settings.LOCAL_WIKI_DIR}"
    return Check(SETTINGS, Status.OK, f"language {settings.LANGUAGE}, {wiki}")


async def check_database(settings: Settings) -> Check:
    """The database answers and its schema is one this release can run on; read only
    (doctor writes nothing: `run` creates the file and applies the migrations)."""
    try:
        versions, expected = await schema_versions(settings.database_target)
    except DatabaseError as exc:
        return Check("database", Status.FAILING, str(exc))
    shown = settings.database_shown
    if versions is None:  # an SQLite file not made yet: can `run` make it there?
        why = await asyncio.to_thread(cannot_write, Path(settings.database_target).parent)
        if why:
            return Check("database", Status.FAILING, f"{shown}: `run` cannot create it: {why}")
        return Check("database", Status.OK, f"{shown}: not created yet (`run` creates it)")
    missing = sorted(set(expected) - set(versions))
    if missing:
        text = f"{shown}: migrations {missing} not applied yet (`run` applies them at start)"
        return Check("database", Status.WARNING, text)
    newer = sorted(set(versions) - set(expected))
    if newer:
        text = f"{shown}: schema {newer} is newer than this release knows (upgrade the bot)"
        return Check("database", Status.FAILING, text)
    return Check("database", Status.OK, f"{shown} (schema {versions[-1]})")


async def check_participants(settings: Settings) -> Check:
    """Who debates (PARTICIPANTS) and whether each backend it needs is set up here."""
    roster = settings.roster
    who = ", ".join(f"{m.id} ({m.backend.value})" for m in roster)
    backends = {m.backend for m in roster}
    if Backend.AG_RELAY in backends and not settings.AG_USER_IDS:
        return Check(
            "participants", Status.MISSING, f"{who}: ag-relay needs AG_USER_IDS", (WITHOUT_AG,)
        )
    runs = f"{who}; format {settings.DEFAULT_FORMAT}"
    if Backend.GEMINI_CLI not in backends:
        return Check("participants", Status.OK, runs)
    if shutil.which(settings.GEMINI_CLI_BIN) is None:
        return Check(
            "participants",
            Status.FAILING,
            f"{who}: gemini-cli needs the Gemini CLI, {settings.GEMINI_CLI_BIN} is not found; "
            f"install it: {install_command(GEMINI_PACKAGE)}",
            (GEMINI_CLI_ACCOUNTS,),
        )
    if settings.GEMINI_API_KEY is None:  # it may still work, with a Standard/Enterprise login
        detail = f"{runs}; GEMINI_API_KEY is not set"
        return Check("participants", Status.WARNING, detail, (GEMINI_CLI_ACCOUNTS,))
    return Check("participants", Status.OK, f"{runs}; the Gemini CLI uses GEMINI_API_KEY")


async def check_claude(settings: Settings, env: Mapping[str, str] | None = None) -> Check:
    """CLAUDE_BIN answers `--version` and is logged in, in the environment the bot gives it."""
    return await check_claude_cli(
        settings.CLAUDE_BIN, keep_api_key=settings.CLAUDE_KEEP_API_KEY, env=env
    )


async def check_node(_: Settings) -> Check:
    """Node.js is as new as the pinned claude CLI declares."""
    return await check_node_version()


async def check_wiki(settings: Settings) -> Check:
    """The wiki answers and the key has the rights it needs; the backend is closed after."""
    try:
        check_root(settings.WIKI_ROOT)
    except SlugError as exc:
        return Check("wiki", Status.FAILING, str(exc))
    backend = build_wiki_backend(settings)
    try:
        detail = await backend.check()
    except WikiError as exc:
        return Check("wiki", Status.FAILING, exc.message)
    finally:
        await backend.aclose()
    if settings.WIKIJS_URL and not settings.WIKI_PUBLIC_URL and internal(settings.WIKIJS_URL):
        said = (
            f"{detail}; the links posted to Discord would start with {settings.WIKIJS_URL}, "
            "an address only this machine or network reaches: set WIKI_PUBLIC_URL to the "
            "address people open"
        )
        return Check("wiki", Status.WARNING, said)
    return Check("wiki", Status.OK, detail)


def internal(url: str) -> bool:
    """True if people elsewhere could not open `url`: a loopback or private address, or a
    name without a dot (`wiki`, a compose service) or under .local / .internal / .lan."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host or host.endswith((".local", ".internal", ".lan", ".localhost"))
    return not address.is_global


async def check_moderator(settings: Settings) -> Check:
    """Ask the configured Gemini backend one tiny question, counted in the daily budget of
    the bot's database when there is one on the current schema (doctor makes no database:
    without one the count is kept in memory, and one request is no debate's spending)."""
    backend = settings.MODERATOR_BACKEND
    if backend == "api" and settings.GEMINI_API_KEY is None:
        return Check(PART, Status.MISSING, "GEMINI_API_KEY is not set (MODERATOR_BACKEND=api)")
    try:
        tables = await Tables.open(await _counting_database(settings))
    except DatabaseError as exc:
        return Check(PART, Status.FAILING, f"cannot count the request: {exc}")
    moderator = build_moderator(settings, tables, asyncio.sleep)
    try:
        detail = await moderator.ping()
    except ModeratorError as exc:
        notes = (GEMINI_CLI_ACCOUNTS,) if backend == "cli" else ()
        return Check(PART, Status.FAILING, f"{backend}: {exc}", notes)
    finally:
        await moderator.aclose()
        await tables.close()
    return Check(PART, Status.OK, f"{backend}: {detail}")


async def _counting_database(settings: Settings) -> str:
    """Where the doctor's request is counted: the bot's database if it exists with every
    migration applied (counting then writes one row, creating nothing), else memory."""
    versions, expected = await schema_versions(settings.database_target)
    current = versions is not None and set(expected) <= set(versions)
    return settings.database_target if current else IN_MEMORY


def all_checks() -> list[CheckFn]:
    """Every check, in the order printed; each part's module provides its own."""
    return [
        check_settings,
        check_participants,
        check_database,
        check_discord,
        check_claude,
        check_node,
        check_wiki,
        check_moderator,
    ]


async def run_doctor(settings: Settings, checks: list[CheckFn] | None = None) -> int:
    """Print one line per part; exit 2 if `run` would refuse the settings, 1 if a part fails."""
    results = []
    for check in checks or all_checks():
        result = await check(settings)
        results.append(result)
        for line in result.lines():  # as each part answers: a relay ping waits minutes
            print(line, flush=True)  # noqa: T201  # the command's output
    if any(r.part == SETTINGS and r.status is Status.FAILING for r in results):
        return EXIT_MISSING
    return 1 if any(r.status is Status.FAILING for r in results) else 0
