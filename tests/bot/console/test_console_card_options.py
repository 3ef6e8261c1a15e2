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


POOL = (
    "ag:ag-relay:AG:architect,claude:claude-cli:Claude:security reviewer,"
    "po:claude-cli:PO:product owner,ops:claude-cli:Ops:cache operator,"
    "fin:claude-cli:Fin:finance,law:claude-cli:Law:legal counsel,ux:claude-cli:UX:designer"
)


async def test_the_console_card_offers_the_rules_squad_and_takes_a_typed_one(
    settings: Settings, screen: Screen
) -> None:
    board = settings.model_copy(update={"PARTICIPANTS": POOL, "DEFAULT_FORMAT": "boardroom"})
    lines, _, session = rules_session(board, screen)
    lines.push("/debate 캐시 계층 설계 — Redis vs LRU")
    await screen.shows(T("budget.console_card"))  # the card is up
    # No moderator to suggest one: the rules read an architecture decision and seat the five
    # whose roles fit it (the architect, the cache operator, the designer, then roster order).
    await screen.shows(
        f"🧭 {T('boardroom.squad_suggested_rules')} {T('boardroom.kind_architecture')}"
    )
    await screen.shows(f"{T('boardroom.squad_left')} Fin, Law")
    assert T("boardroom.squad_suggested") not in screen.getvalue()  # no moderator suggested it
    mark = len(screen.getvalue())
    lines.push("squad=ag,claude,po,ops,fin,law")  # six: more than a panel seats
    await screen.shows(T("console.card_waiting"), after=mark)
    lines.push("squad = law, fin")
    chosen = f"{T('front.option_boardroom_squad')}: law, fin"
    await screen.shows(T("console.option_chosen", option=chosen))
    lines.push("guardrails=LGPD: nenhum dado sai do Brasil")
    lines.push("n")
    await screen.shows(T("console.card_declined", user="나"), after=mark)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    db = await Database.open(str(settings.DATA_DIR / "console.sqlite3"))
    try:
        debate = await SqliteStore(db).load(1)
    finally:
        await db.close()
    assert debate.option("boardroom.squad") == "law,fin"
    assert "LGPD: nenhum dado sai do Brasil" in debate.added_text("boardroom.guardrails")


def test_a_typed_squad_is_two_to_five_of_the_cards_members() -> None:
    asked = format_named("boardroom").card_options
    seats = ("ag", "claude", "po", "ops", "fin", "law")
    assert option_in("squad=AG, Claude", asked, seats) == ("boardroom.squad", "ag,claude")
    assert option_in("squad=ag claude po ops fin", asked, seats) is not None
    assert option_in("squad=ag,claude,po,ops,fin,law", asked, seats) is None  # six
    assert option_in("squad=ag", asked, seats) is None  # one is no panel
    assert option_in("squad=ag,ag", asked, seats) is None
    assert option_in("squad=ag,nobody", asked, seats) is None
