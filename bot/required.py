"""What `debate-room run` needs set before it starts; `debate-room doctor` names the same."""

from __future__ import annotations

from bot.settings import Settings
from handlers.core.model import Backend

# A roster a newcomer can run without the AG relay (a Discord account for AG in its IDE).
NO_AG_ROSTER = "PARTICIPANTS=claude:claude-cli,gemini:gemini-cli"
WITHOUT_AG = (
    f"to debate without AG: {NO_AG_ROSTER} (the Gemini CLI, with GEMINI_API_KEY), "
    "or two Claude seats: PARTICIPANTS=claude:claude-cli,critic:claude-cli:Critic"
)


def missing_for_run(settings: Settings) -> list[str]:
    """One line per setting `run` cannot start without (empty: nothing is missing)."""
    lines = []
    if settings.DISCORD_TOKEN is None:
        lines.append(
            "DISCORD_TOKEN is not set (see .env.example); "
            "to watch a recorded debate without Discord, run `debate-room demo`"
        )
    if settings.MODERATOR_BACKEND == "api" and settings.GEMINI_API_KEY is None:
        lines.append("GEMINI_API_KEY is not set (see .env.example; MODERATOR_BACKEND=api)")
    relayed = any(member.backend is Backend.AG_RELAY for member in settings.roster)
    if relayed and not settings.AG_USER_IDS:
        lines.append(
            "AG_USER_IDS is not set: the AG seat of PARTICIPANTS answers through the Discord "
            f"relay as these user ids (README, 'The AG relay'); {WITHOUT_AG}"
        )
    return lines
