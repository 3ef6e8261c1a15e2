"""The console's typed `/stats [days]` (Discord's `/debate stats`): each seat's record over
every debate of the console's database."""

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
from tests.doubles import FakeClock, QueueLines, ScriptedModerator

T = Strings("ko")


async def test_stats_typed_in_the_console_shows_each_seat_s_record(
    settings: Settings, screen: Screen
) -> None:
    lines, ag, claude = QueueLines(), HangingDebater(AG), HangingDebater(CLAUDE)
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(name="alice"),
            plain_console(screen, width=200),
            Keyboard(lines),
            FakeClock(),
            moderator=ScriptedModerator(),
            seats={Backend.AG_RELAY: ag, Backend.CLAUDE_CLI: claude},
            rng=random.Random(seed_for(AG)),
        )
    )
    lines.push("/stats")
    await screen.shows(T("stats.none"))
    lines.push("/stats 7")
    await screen.shows(T("stats.none_days", days=7))
    lines.push(
        "캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네",
        "bob: 멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이 고민이라 장단점이 애매하다",
    )
    await screen.shows(T("console.card_title"))
    lines.push("y")
    await asyncio.wait_for(ag.started.wait(), 10)  # mid-turn: AG never answers
    mark = len(screen.getvalue())
    lines.push("/stats")
    await screen.shows(T("stats.title", count=1), after=mark)
    await screen.shows(T("stats.key"), after=mark)
    shown = screen.getvalue()[mark:].splitlines()
    rows = {
        line.split()[0]: line.split()[1:]
        for line in shown
        if line.split()[:1] in (["AG"], ["Claude"])
    }
    # Both seats sat in the one debate; nobody has spoken, failed or spent anything yet.
    assert rows == {seat: ["1", "0", "0", "0", "0", "0", "0", "$0.00"] for seat in ("AG", "Claude")}
    lines.push("/quit")
    assert await asyncio.wait_for(session, 10) == 0
