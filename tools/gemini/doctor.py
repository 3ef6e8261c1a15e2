"""`debate-room doctor`'s moderator line: one tiny counted request to the configured backend."""

from __future__ import annotations

from tools.checks import Check, Status
from tools.gemini.core import ModeratorError, StructuredModerator

PART = "moderator"
# Since 2026-06-18 the Gemini CLI refuses Google AI Pro, Ultra and free personal accounts
# (IneligibleTierError): an API key, or a Workspace account on a paid Code Assist edition.
GEMINI_CLI_ACCOUNTS = (
    "the Gemini CLI serves GEMINI_API_KEY or a Gemini Code Assist Standard/Enterprise account "
    "only (since 2026-06-18, not Google AI Pro, Ultra or free personal accounts)"
)


async def check_moderator_backend(moderator: StructuredModerator, backend: str) -> Check:
    """Ask the moderator one tiny question (it counts in the budget); the moderator is closed."""
    try:
        try:
            detail = await moderator.ping()
        finally:
            await moderator.aclose()
    except ModeratorError as exc:
        notes = (GEMINI_CLI_ACCOUNTS,) if backend == "cli" else ()
        return Check(PART, Status.FAILING, f"{backend}: {exc}", notes)
    return Check(PART, Status.OK, f"{backend}: {detail}")
