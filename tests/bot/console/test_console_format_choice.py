"""The console's card lets the person choose the format, by its number or its name."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot.formatting import format_label
from bot.settings import Settings
from handlers.core.formats import formats_for
from handlers.core.i18n import Strings
from handlers.core.model import DEFAULT_ROSTER
from tests.bot.console.conftest import Screen, rules_session
from tests.handlers.duo_format import DUO, registered
from tools.store.db import Database
from tools.store.debates import SqliteStore

T = Strings("ko")


@pytest.fixture(autouse=True)
def duo() -> Iterator[None]:
    with registered(DUO):
        yield


async def test_the_card_takes_a_format_by_number_or_name(
    settings: Settings, screen: Screen
) -> None:
    lines, keyboard, session = rules_session(settings, screen)
    lines.push("/debate 로그 보관 기간")
    offered = formats_for(DEFAULT_ROSTER)  # every registered format the two seats can run
    listed = " · ".join(f"{n}. {format_label(T, f)}" for n, f in enumerate(offered, start=1))
    await screen.shows(T("console.card_formats", formats=listed))
    lines.push(str(offered.index("duo") + 1))
    await screen.shows(T("console.format_chosen", format="duo"))
    lines.push("FREE")  # a name, any case
    await screen.shows(T("console.format_chosen", format=T("front.format_free")))
    # The name the card shows ("자유 토론"), or shows in another language ("Free debate").
    for shown in (format_label(T, "free"), format_label(Strings("en"), "free")):
        lines.push("duo")
        await screen.shows(T("console.format_chosen", format="duo"))
        mark = len(screen.getvalue())
        lines.push(shown.upper())
        await screen.shows(T("console.format_chosen", format=T("front.format_free")), after=mark)
    mark = len(screen.getvalue())
    lines.push(str(len(offered) + 1))  # no such format: the card still waits, nothing chosen
    await screen.shows(T("console.card_waiting"), after=mark)
    lines.push("duo", "y")
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    db = await Database.open(str(settings.DATA_DIR / "console.sqlite3"))
    try:
        debate = await SqliteStore(db).load(1)
    finally:
        await db.close()
    assert debate.setup.format == "duo" and debate.setup.started_at is not None


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
def test_every_seed_format_is_named_in_the_card_language(language: str) -> None:
    t = Strings(language)
    for name in ("free", "boardroom", "adversarial", "ledger"):
        assert t.has(f"front.format_{name}"), name
        assert format_label(t, name) != name  # never the bare id ("ledger" on a pt-BR card)
