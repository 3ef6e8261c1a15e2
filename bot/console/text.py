"""The console's colours and its few formatted lines: the status, a turn's heading and footer."""

from __future__ import annotations

from datetime import datetime

from handlers.i18n import Strings
from handlers.model import Debate, Phase, Seat, Turn

# The Discord embeds' colours, so a debate reads the same in both places.
AG_GREEN = "#2ECC71"
CLAUDE_BLUE = "#3498DB"
MODERATOR_GREY = "#95A5A6"
USER_AMBER = "#F5A623"
WARNING_ORANGE = "#E67E22"
SEAT_COLOURS = {Seat.AG: AG_GREEN, Seat.CLAUDE: CLAUDE_BLUE}
SHA_DIGITS = 12


def status_line(debate: Debate, t: Strings, now: datetime, *, rules_only: bool = False) -> str:
    """Round, speaker, elapsed minutes, cost and the moderator's mode (or how it ended)."""
    started = debate.started_at or now
    minutes = int(((debate.ended_at or now) - started).total_seconds() // 60)
    common = {
        "round": debate.round,
        "max": debate.max_rounds,
        "minutes": minutes,
        "cost": f"{debate.cost_usd:.2f}",
        "mode": t(f"console.mode_{'rules' if rules_only else debate.moderator_source.value}"),
    }
    if debate.phase.is_terminal:
        outcome = debate.outcome.value if debate.outcome else debate.phase.value
        return t("console.status_ended", outcome=t(f"console.outcome_{outcome}"), **common)
    if debate.phase is Phase.AWAITING_USER:
        return t("console.status_waiting", **common)
    if debate.phase is Phase.CONCLUDING:
        return t("console.status_concluding", **common)
    if debate.phase is Phase.JUDGING:
        return t("console.status_judging", **common)
    speaker = (
        t(f"console.seat_{debate.speaker.value}") if debate.speaker else t("console.moderator")
    )
    return t("console.status_running", speaker=speaker, **common)


def author_line(turn: Turn, t: Strings) -> str:
    """`🟢 AG (gemini-3.1-pro) · 턴 2`."""
    name = t(f"console.seat_{turn.seat.value}")
    model = f" ({turn.meta.model})" if turn.meta.model else ""
    return t("console.turn_heading", name=f"{name}{model}", turn=turn.number, round=turn.round)


def footer_text(turn: Turn, t: Strings) -> str:
    """Tokens, cost, seconds, stance and the reply's SHA-256; unknown figures left out."""
    meta = turn.meta
    parts = []
    tokens = meta.input_tokens + meta.output_tokens
    if tokens:
        parts.append(t("console.footer_tokens", tokens=f"{tokens:,}"))
    if meta.cost_usd:
        parts.append(f"${meta.cost_usd:.2f}")
    parts.append(t("console.footer_seconds", seconds=round(meta.latency_s)))
    if turn.parsed.structured and turn.parsed.stance is not None:
        parts.append(t(f"console.stance_{turn.parsed.stance.value}"))
    parts.append(f"sha256 {turn.sha256[:SHA_DIGITS]}")
    return " · ".join(parts)
