"""The approval card in the terminal: the proposal, its format and options, the keys that
answer it, and how it ended."""

from __future__ import annotations

from rich.text import Text

from bot.console.card_keys import option_lines
from bot.console.room.out import MODERATOR_GREY, USER_AMBER, ConsoleOut
from bot.formatting import (
    cost_estimate,
    format_label,
    precedent_why,
    roster_line,
    seat_name,
    suggestion,
)
from handlers.core.formats import formats_for
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Phase


def post_card(out: ConsoleOut, debate: Debate) -> None:
    """The approval card, with the keys that answer it."""
    out.panel(_card_body(debate, out.t), "console.card_title", MODERATOR_GREY, "console.card_keys")


def _card_body(debate: Debate, t: Strings) -> Text:
    """The proposal, its format and options, its precedents and its participants."""
    proposal = debate.proposal
    body = Text()
    body.append(f"{t('console.card_topic')}: ", style="bold")
    body.append(f"{proposal.topic}\n")
    body.append(f"{t('console.card_question')}: ", style="bold")
    body.append(f"{proposal.question or proposal.topic}\n")
    if proposal.reason:
        body.append(f"{t('console.card_reason')}: ", style="bold")
        body.append(f"{proposal.reason}\n")
    body.append(f"{t('console.card_format')}: ", style="bold")
    name = format_label(t, debate.setup.format)
    body.append(t("console.card_format_value", format=name, rounds=debate.setup.max_rounds) + "\n")
    if hint := suggestion(debate, t):
        body.append(hint + "\n")
    if len(offered := formats_for(debate.setup.roster)) > 1:
        listed = " · ".join(f"{n}. {format_label(t, f)}" for n, f in enumerate(offered, start=1))
        body.append(t("console.card_formats", formats=listed) + "\n")
    body.append(t("budget.console_card") + "\n")
    body.append(cost_estimate(debate, t) + "\n")
    for line in option_lines(debate, t):
        body.append(line + "\n")
    for found in proposal.precedents:
        why = precedent_why(found, t)
        body.append(f"{t('precedents.console')}: {found.title} · {found.url} · {why}\n")
    body.append(f"{t('console.card_participants')}: ", style="bold")
    names = {m.id: seat_name(t, m.id, debate, "console") for m in debate.setup.roster}
    body.append(roster_line(debate, t, names))
    return body


def close_card(out: ConsoleOut, names: dict[int, str], debate: Debate) -> None:
    """How the card ended: opened, declined or expired."""
    ended = debate.phase in (Phase.DECLINED, Phase.EXPIRED)
    phase = debate.phase.value if ended else "opened"
    who = debate.setup.approved_by
    actor = "-" if who is None else names.get(who, str(who))
    out.line(out.t(f"console.card_{phase}", user=actor), USER_AMBER)
