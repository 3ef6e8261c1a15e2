"""The console's typed `/list [page]`, `/status N`, `/stop N`, `/export N [adr]` (Discord's
`/debate` commands)."""

from __future__ import annotations

import asyncio
import random

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Backend
from tests.bot.console.conftest import HangingDebater, Screen, plain_console, seed_for
from tests.doubles import TOPIC, FakeClock, QueueLines, ScriptedModerator
from tests.tools.wiki.adr_support import check_complete, front_matter

T = Strings("ko")


async def test_slash_commands_typed_in_the_console_list_show_and_stop(
    settings: Settings, screen: Screen
) -> None:
    lines, ag, claude = QueueLines(), HangingDebater(AG), HangingDebater(CLAUDE)
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(name="alice"),
            plain_console(screen, width=200),
            keyboard,
            FakeClock(),
            moderator=ScriptedModerator(),
            seats={Backend.AG_RELAY: ag, Backend.CLAUDE_CLI: claude},
            rng=random.Random(seed_for(AG)),
        )
    )
    lines.push("/list")
    await screen.shows(T("admin.none_open"))
    lines.push(
        "캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네",
        "bob: 멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이 고민이라 장단점이 애매하다",
    )
    await screen.shows(T("console.card_title"))
    lines.push("/list")
    await screen.shows(f"#1 {TOPIC} · {T('front.card_proposed')}")
    lines.push("/list 2")  # a page of the list, as `/debate list page:2`
    await screen.shows(T("admin.no_page", page=2, pages=1))
    lines.push("y")
    await asyncio.wait_for(ag.started.wait(), 10)  # mid-turn: AG never answers
    mark = len(screen.getvalue())
    lines.push("/status 1")
    await screen.shows(f"#1 {TOPIC} · 라운드 1/", after=mark)
    lines.push("/export 1")
    written = settings.DATA_DIR / "debate-1.md"
    await screen.shows(T("export.written", path="").rstrip(), after=mark)
    assert written.read_text(encoding="utf-8").startswith(f"# {TOPIC}\n")
    lines.push("/status 7")
    await screen.shows(T("admin.no_debate", id=7), after=mark)
    lines.push("/stop 1")
    await screen.shows(T("admin.stopped", id=1), after=mark)
    await asyncio.wait_for(ag.cancelled.wait(), 10)
    lines.push("/stop 1")
    await screen.shows(T("admin.not_stopped", id=1), after=mark)
    ended = T("debate.outcome_recorded", outcome="", url="").split(":")[0]
    await screen.shows(ended, after=mark)  # the Conclusion written: nothing is open
    lines.push("/export 1 adr")  # the decision as an ADR: stopped, so proposed
    await screen.shows(T("adr.written", path="").rstrip(), after=mark)
    [adr] = settings.DATA_DIR.glob("adr-1-*.md")
    text = adr.read_text(encoding="utf-8")
    assert front_matter(text)["status"] == "proposed"
    assert "](file://" in check_complete(text, T)["adr.more"]  # its pages in the local wiki
    lines.push("/status 1 adr")
    await screen.shows(T("admin.console_usage"), after=mark)
    lines.push("/list")
    await screen.shows(T("admin.none_open"), after=mark)
    lines.push("/quit")
    assert await asyncio.wait_for(session, 10) == 0
