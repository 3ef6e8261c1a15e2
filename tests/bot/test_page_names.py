"""A page's name in the thread and on the card is wholly in the debate's language, as its title
on the wiki is (the seat's name aside)."""

from __future__ import annotations

import re

import pytest

from bot.formatting import page_label
from handlers.core.i18n import Strings

PAGES = ("agenda", "working-document", "round-log", "conclusion", "round-1/ag", "turns/01-ag")
ENGLISH = re.compile(r"\b(Agenda|Working|Document|Round|Log|Conclusion|Turn)\b")


@pytest.mark.parametrize("page", PAGES)
def test_a_page_is_named_in_korean(page: str) -> None:
    name = page_label(Strings("ko"), "free", page).replace("AG", "")
    assert name and not re.search(r"[A-Za-z]", name), name


@pytest.mark.parametrize("page", PAGES)
def test_a_page_is_named_in_portuguese(page: str) -> None:
    name = page_label(Strings("pt-BR"), "free", page)
    assert name != page and not ENGLISH.search(name.replace("Agenda", "")), name
