"""The README's console example (`examples/console_session.txt`) shows honest concessions:
each seat that moves toward the other quotes, word for word, what convinced it, so the console
never flags its own example's debaters, whichever seat the draw sends first."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE
from handlers.rules_moderator import RulesModerator
from tests.bot.console.conftest import Screen, plain_console, seed_for
from tests.doubles import FakeClock, QueueLines

T = Strings("ko")
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "console_session.txt"


@pytest.mark.parametrize("first", [AG, CLAUDE])
async def test_the_example_s_stance_moves_carry_quotes_the_other_seat_wrote(
    settings: Settings, screen: Screen, first: str
) -> None:
    lines = QueueLines()
    lines.push(*EXAMPLE.read_text(encoding="utf-8").splitlines())
    lines.close()
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", claude="human", name="alice"),
            plain_console(screen, width=200),
            Keyboard(lines, paced=True),
            FakeClock(),
            moderator=RulesModerator(T),
            rng=random.Random(seed_for(first)),
        )
    )
    assert await asyncio.wait_for(session, 30) == 0
    shown = screen.getvalue()
    assert T("console.conclusion_title") in shown
    for seat in ("AG", "Claude"):
        assert T("concession.unquoted", seat=seat) not in shown
    names = {AG: "AG", CLAUDE: "Claude"}
    opened = min(names.values(), key=lambda name: shown.find(T("console.human_turn", seat=name)))
    assert opened == names[first]  # the draw gave `first` the opening turn
