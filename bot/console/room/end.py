"""The debate's end in the terminal: the Conclusion, or a format's closing summary in its
place, with links to the pages the debate wrote."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from bot.console.room.out import MODERATOR_GREY, ConsoleOut
from bot.formatting import page_keys, page_label, seat_name
from handlers.core.ending.degraded import degraded_line, rules_line, warned
from handlers.core.formats import format_named
from handlers.core.formats.keys import fill_keys
from handlers.core.model import Conclusion, Debate, ModeratorSource
from handlers.core.spending.limits import cost_per_seat
from handlers.ports import Loaded


def post_summary(out: ConsoleOut, debate: Debate, loaded: Loaded) -> None:
    """The format's closing block in full (titled as the Conclusion it may stand for), pages."""
    closing = format_named(debate.setup.format).closes_itself(debate)
    t = out.t
    title = t("console.conclusion_title" if closing else "front.summary_title")
    out.console.rule(Text(title, style="bold"), style=MODERATOR_GREY)
    links = page_keys(debate, dict(loaded.links))
    # No Markdown here: a page is linked as its name and where it is.
    text = fill_keys(warned(debate, loaded.markdown), t, links, _linked).replace("**", "")
    for line in text.splitlines():
        out.line(line, MODERATOR_GREY)
    _pages(out, debate, loaded.links)


def _linked(words: str, url: str) -> str:
    return f"{words} ({url})"


def post_conclusion(
    out: ConsoleOut, debate: Debate, conclusion: Conclusion, loaded: Loaded
) -> None:
    """The end: decision, agreed and open points, positions, next steps and the pages."""
    t = out.t
    out.console.rule(Text(t("console.conclusion_title"), style="bold"), style=MODERATOR_GREY)
    line = degraded_line(debate, t, by_rules=conclusion.source is ModeratorSource.RULES)
    if line:
        out.line(line, MODERATOR_GREY, bold=True)
    if plain := rules_line(debate, t):
        out.line(plain, MODERATOR_GREY)
    out.line(conclusion.decision, MODERATOR_GREY, bold=True)
    positions = tuple(
        f"{seat_name(t, seat, debate, 'console')}: {text}" for seat, text in conclusion.positions
    )
    sections = (
        ("console.conclusion_agreed", conclusion.agreed),
        ("console.conclusion_open", conclusion.open_issues),
        ("console.conclusion_next", conclusion.next_steps),
        ("console.conclusion_positions", positions),
    )
    for key, items in sections:
        if items:
            out.line(t(key), MODERATOR_GREY, bold=True)
            for item in items:
                out.line(f"• {item}", MODERATOR_GREY)
    _pages(out, debate, loaded.links)


def _pages(out: ConsoleOut, debate: Debate, links: Mapping[str, str]) -> None:
    """The pages the debate wrote, each by its name and link, then the cost per seat."""
    out.line(out.t("console.conclusion_pages"), MODERATOR_GREY, bold=True)
    for page, url in links.items():
        out.line(
            f"• {page_label(out.t, debate.setup.format, page, debate, 'console')}: {url}",
            MODERATOR_GREY,
        )
    out.line(out.t("credit.per_seat", seats=cost_per_seat(debate)), MODERATOR_GREY)
