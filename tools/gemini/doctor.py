"""`debate-room doctor`'s moderator line: the key and the model, with one tiny counted request."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tools.checks import Check, Status
from tools.gemini.api import build_moderator
from tools.gemini.core import ModeratorError
from tools.store.db import Database, DatabaseError

if TYPE_CHECKING:
    from bot.settings import Settings

PART = "moderator"


async def check_moderator(settings: Settings) -> Check:
    """Ask the configured Gemini backend one tiny question; the request counts in the budget."""

    if settings.MODERATOR_BACKEND == "api" and settings.GEMINI_API_KEY is None:
        return Check(PART, Status.MISSING, "GEMINI_API_KEY is not set (MODERATOR_BACKEND=api)")
    try:
        db = await Database.open(str(settings.DATABASE_PATH))
    except DatabaseError as exc:
        return Check(PART, Status.FAILING, f"cannot count the request: {exc}")
    try:
        moderator = build_moderator(settings, db, asyncio.sleep)
        try:
            detail = await moderator.ping()
        finally:
            await moderator.aclose()
    except ModeratorError as exc:
        return Check(PART, Status.FAILING, f"{settings.MODERATOR_BACKEND}: {exc}")
    finally:
        await db.close()
    return Check(PART, Status.OK, f"{settings.MODERATOR_BACKEND}: {detail}")
