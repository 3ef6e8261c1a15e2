"""The console's colours and its few formatted lines: the status, a turn's heading and footer."""

from __future__ import annotations

from datetime import datetime

from bot import formatting as colours
from bot.formatting import (
    hex_colour,
    paused_status,
    status_figures,
    turn_figures,
    with_costs,
    with_meter,
)
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Phase, Turn

# The Discord embeds' colours, so a debate reads the same in both places.
AG_GREEN = hex_colour(colours.AG_GREEN)
CLAUDE_BLUE = hex_colour(colours.CLAUDE_BLUE)
MODERATOR_GREY = hex_colour(colours.MODERATOR_GREY)
USER_AMBER = hex_colour(colours.USER_AMBER)
WARNING_ORANGE = hex_colour(colours.WARNING_ORANGE)
SEAT_COLOURS = {seat: hex_colour(colour) for seat, colour in colours.SEAT_COLOURS.items()}


def seat_colour(seat: str, debate: Debate | None = None) -> str:
    """The participant's colour: the roster's, or the default roster's."""
    if debate is not None and seat not in SEAT_COLOURS:
        return hex_colour(debate.member(seat).colour)
    return SEAT_COLOURS.get(seat, AG_GREEN)


def seat_name(t: Strings, seat: str, debate: Debate | None = None) -> str:
    """The participant's name: the locale's for the default roster, else the roster's."""
    key = f"console.seat_{seat}"
    if t.has(key):
        return t(key)
    return debate.name_of(seat) if debate is not None else seat


def status_line(debate: Debate, t: Strings, now: datetime, *, rules_only: bool = False) -> str:
    """Round, speaker, elapsed minutes, cost and the moderator's mode (or how it ended)."""
    common = status_figures(debate, now)
    common["mode"] = t(f"console.mode_{'rules' if rules_only else debate.moderator_source.value}")
    if debate.phase.is_terminal:
        outcome = debate.outcome.value if debate.outcome else debate.phase.value
        ended = t("console.status_ended", outcome=t(f"console.outcome_{outcome}"), **common)
        return with_costs(ended, debate, t)
    return with_costs(with_meter(_running(debate, t, common), debate, t), debate, t)


def _running(debate: Debate, t: Strings, common: dict[str, object]) -> str:
    paused = paused_status(debate, t, common)
    if paused is not None:
        return paused
    if debate.phase is Phase.AWAITING_USER:
        return t("console.status_waiting", **common)
    if debate.phase is Phase.CONCLUDING:
        return t("console.status_concluding", **common)
    if debate.phase is Phase.JUDGING:
        return t("console.status_judging", **common)
    speaker = seat_name(t, debate.speaker, debate) if debate.speaker else t("console.moderator")
    return t("console.status_running", speaker=speaker, **common)


def author_line(turn: Turn, t: Strings, debate: Debate | None = None) -> str:
    """`🟢 AG (gemini-3.1-pro) · 턴 2`."""
    name = seat_name(t, turn.seat, debate)
    model = f" ({turn.meta.model})" if turn.meta.model else ""
    return t("console.turn_heading", name=f"{name}{model}", turn=turn.number, round=turn.round)


def footer_text(turn: Turn, t: Strings) -> str:
    """Tokens, cost, seconds, stance and the reply's SHA-256; unknown figures left out."""
    figures = turn_figures(turn)
    parts = []
    if figures.tokens:
        parts.append(t("console.footer_tokens", tokens=f"{figures.tokens:,}"))
    if figures.cost:
        parts.append(f"${figures.cost}")
    parts.append(t("console.footer_seconds", seconds=figures.seconds))
    if figures.stance:
        parts.append(t(f"console.stance_{figures.stance}"))
    parts.append(f"sha256 {figures.sha}")
    return " · ".join(parts)


def page_label(t: Strings, debate: Debate, page: str) -> str:
    """A wiki page's name for people: the format's or the engine's word, by seat, or its path."""
    key = page.replace("-", "_").replace(".", "_")
    for found in (
        f"{debate.format}.page_{page}",
        f"{debate.format}.page_{key}",
        f"console.page_{key}",
    ):
        if t.has(found):
            return t(found)
    head, _, rest = page.partition("/")
    if head == "turns" and (parts := rest.partition("-"))[0].isdigit():
        return t("console.page_turn", turn=int(parts[0]), seat=seat_name(t, parts[2], debate))
    if head.startswith("round-") and rest:
        return t(
            "console.page_round", round=head.removeprefix("round-"), seat=seat_name(t, rest, debate)
        )
    return page
