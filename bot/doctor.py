"""`debate-room doctor`: one line per configured outside part, ok / missing / failing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.discord_doctor import check_discord
from bot.settings import Settings
from tools.checks import Check, Status
from tools.claude_doctor import check_claude
from tools.db import Database, DatabaseError
from tools.gemini_doctor import check_moderator
from tools.wiki_helper import check_wiki

__all__ = ["Check", "CheckFn", "Status", "all_checks", "run_doctor"]

CheckFn = Callable[[Settings], Awaitable[Check]]


async def check_settings(settings: Settings) -> Check:
    """The settings loaded (they did, or we would not be here)."""
    wiki = "Wiki.js" if settings.WIKIJS_URL else f"local wiki in {settings.LOCAL_WIKI_DIR}"
    return Check("settings", Status.OK, f"language {settings.LANGUAGE}, {wiki}")


async def check_database(settings: Settings) -> Check:
    """The database file opens and every migration is applied."""
    try:
        db = await Database.open(str(settings.DATABASE_PATH))
    except DatabaseError as exc:
        return Check("database", Status.FAILING, str(exc))
    try:
        versions = await db.applied_versions()
    finally:
        await db.close()
    return Check("database", Status.OK, f"{settings.DATABASE_PATH} (schema {versions[-1]})")


def all_checks() -> list[CheckFn]:
    """Every check, in the order printed; each part's module provides its own."""
    return [
        check_settings,
        check_database,
        check_discord,
        check_claude,
        check_wiki,
        check_moderator,
    ]


async def run_doctor(settings: Settings, checks: list[CheckFn] | None = None) -> int:
    """Print one line per part; exit status 1 if any configured part fails."""
    results = [await check(settings) for check in (checks or all_checks())]
    for result in results:
        for line in result.lines():
            print(line)  # noqa: T201  # the command's output
    return 1 if any(r.status is Status.FAILING for r in results) else 0
