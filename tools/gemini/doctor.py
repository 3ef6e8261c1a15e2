"""`debate-room doctor`'s moderator line: one tiny counted request to the configured backend."""

from __future__ import annotations

from tools.checks import Check, Status
from tools.gemini.core import ModeratorError, StructuredModerator

PART = "moderator"


async def check_moderator_backend(moderator: StructuredModerator, backend: str) -> Check:
    """Ask the moderator one tiny question (it counts in the budget); the moderator is closed."""
    try:
        try:
            detail = await moderator.ping()
        finally:
            await moderator.aclose()
    except ModeratorError as exc:
        return Check(PART, Status.FAILING, f"{backend}: {exc}")
    return Check(PART, Status.OK, f"{backend}: {detail}")
