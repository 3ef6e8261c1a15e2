"""The console's card takes the format's setup answers as `key=value` (`stance=neutral`)."""

from __future__ import annotations

import asyncio

from bot.console.card_keys import option_in
from bot.settings import Settings
from handlers.core.formats import format_named
from handlers.core.i18n import Strings
from tests.bot.console.conftest import Screen, rules_session
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.wiki.backends import LocalWiki

T = Strings("ko")


async def test_the_card_takes_the_formats_setup_answers_as_key_value(
    settings: Settings, screen: Screen
) -> None:
    lines, keyboard, session = rules_session(settings, screen)
    lines.push("/debate 로그 보관 기간")
    await screen.shows(T("budget.console_card"))  # the card is up
    mark = len(screen.getvalue())
    lines.push("stance=neutral")  # the free format asks no such question: nothing chosen
    await screen.shows(T("console.card_waiting"), after=mark)
    lines.push("ledger", "stance=neutral", "ledger.end=open")
    neutral = f"{T('front.option_ledger_stance')}: {T('front.option_ledger_stance_neutral')}"
    opened = f"{T('front.option_ledger_end')}: {T('front.option_ledger_end_open')}"
    await screen.shows(T("console.option_chosen", option=neutral))
    await screen.shows(T("console.option_chosen", option=opened))
    lines.push("y")
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    db = await Database.open(str(settings.DATA_DIR / "console.sqlite3"))
    try:
        debate = await SqliteStore(db).load(1)
    finally:
        await db.close()
    assert debate.setup.format == "ledger" and debate.setup.started_at is not None
    assert debate.option("ledger.stance") == "neutral" and debate.option("ledger.end") == "open"


def test_a_key_value_line_picks_only_what_the_format_asks() -> None:
    ledger, adversarial = (format_named(n).card_options for n in ("ledger", "adversarial"))
    assert option_in("Stance = Neutral", ledger) == ("ledger.stance", "neutral")
    assert option_in("ledger.end=open", ledger) == ("ledger.end", "open")
    assert option_in("stance=hostile", ledger) is None
    assert option_in("stance neutral", ledger) is None
    assert option_in("evidence=p99 120 ms", ledger) is None
    typed = "evidence = p99 120 ms; CONSTRAINTS: Keep = as is"
    assert option_in(typed, adversarial) == (
        "adversarial.evidence",
        "p99 120 ms; CONSTRAINTS: Keep = as is",
    )


async def test_the_console_card_names_each_precedent_and_why(
    settings: Settings, screen: Screen
) -> None:
    wiki = LocalWiki(settings.LOCAL_WIKI_DIR)
    await wiki.write("debates/로그/conclusion", "로그 보관 — 결론", "## 결정\n90일 보관", None)
    await wiki.write("debates/vim-vs-emacs/conclusion", "vim vs emacs — 결론", "둘 다", None)
    lines, _, session = rules_session(settings, screen)
    lines.push("/debate 로그 보관 기간 vs 비용")
    await screen.shows(T("budget.console_card"))  # the card is up
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
    shown = screen.getvalue()
    assert "로그 보관 — 결론" in shown and T("precedents.why", because="로그, 보관") in shown
    assert "emacs" not in shown  # shares only "vs"


async def test_anonymous_peers_are_asked_on_every_console_card(
    settings: Settings, screen: Screen
) -> None:
    lines, keyboard, session = rules_session(settings, screen)
    lines.push("/debate 로그 보관 기간")
    await screen.shows(T("budget.console_card"))
    off = f"{T('front.option_anonymous')}: {T('front.option_anonymous_off')}"
    assert off in screen.getvalue()  # the card's line, and its keys
    lines.push("anonymous=on")
    on = f"{T('front.option_anonymous')}: {T('front.option_anonymous_on')}"
    await screen.shows(T("console.option_chosen", option=on))
    lines.push("y")
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
    db = await Database.open(str(settings.DATA_DIR / "console.sqlite3"))
    try:
        assert (await SqliteStore(db).load(1)).option("anonymous") == "on"
    finally:
        await db.close()
