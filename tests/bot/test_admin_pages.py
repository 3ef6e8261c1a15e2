"""The approvers' list in pages (bot/admin.py), as Discord's `/debate list page:N` and the
console's `/list N` show it: whole lines, a page never past one message, every debate once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.admin import MESSAGE_LIMIT, debate_lines
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Phase, Proposal, Setup

EN = Strings("en")
AT = datetime(2026, 12, 3, tzinfo=UTC)


def _debates(*topics: str) -> list[Debate]:
    return [
        Debate(n, Proposal(1, topic, "?", "r", 0.9, "", (1,)), Phase.PROPOSED, AT, setup=Setup(3))
        for n, topic in enumerate(topics, 1)
    ]


def _page(debates: list[Debate], page: int) -> str:
    links = [""] * len(debates)
    return debate_lines(debates, EN, str, links, page=page, command=lambda n: f"/list {n}")


def test_a_short_list_is_one_page_without_a_closing_line() -> None:
    said = _page(_debates("Redis or LRU", "Tabs or spaces"), 1)
    assert said.splitlines() == [
        f"#1 Redis or LRU · {EN('front.card_proposed')}",
        f"#2 Tabs or spaces · {EN('front.card_proposed')}",
    ]
    assert _page([], 1) == EN("admin.none_open")
    assert _page(_debates("x"), 2) == EN("admin.no_page", page=2, pages=1)


@pytest.mark.parametrize("length", [10, 400, 1900, 5000])
def test_pages_hold_whole_lines_within_a_message_and_every_debate_once(length: int) -> None:
    debates = _debates(*(f"{n:03d} " + "t" * length for n in range(30)))
    seen: list[str] = []
    page = 1
    while True:
        said = _page(debates, page)
        assert len(said) <= MESSAGE_LIMIT
        lines = said.splitlines()
        if lines[-1].startswith("…"):
            left = 30 - len(seen) - (len(lines) - 1)
            assert lines[-1] == EN("admin.more", count=left, command=f"/list {page + 1}")
            lines = lines[:-1]
        seen += [line.split(" ", 2)[1] for line in lines]  # each line's own number
        if len(seen) == 30:
            break
        page += 1
    assert seen == [f"{n:03d}" for n in range(30)]  # a line too long alone is cut, not lost
