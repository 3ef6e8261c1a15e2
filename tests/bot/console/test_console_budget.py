"""The budget in the console: `r N` on the card sets it; at the budget the debate pauses, and
`e` extends it by one round, `c` concludes (other words are kept for the moderator)."""

from __future__ import annotations

import asyncio
import random

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import AG, Debate, Outcome
from handlers.rules_moderator import RulesModerator
from tests.bot.console.conftest import Screen, contract_reply, plain_console, seed_for
from tests.doubles import FakeClock, QueueLines
from tools.store.db import Database
from tools.store.debates import SqliteStore

T = Strings("ko")


async def _reply(lines: QueueLines, keyboard: Keyboard, text: str) -> None:
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.push(*contract_reply(text, stance="partial"), ".")


def _paused_session(
    settings: Settings, screen: Screen
) -> tuple[Settings, QueueLines, Keyboard, asyncio.Task[int]]:
    paused = settings.model_copy(update={"BUDGET_PAUSE": True, "MAX_ROUNDS": 3})
    lines = QueueLines()
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            paused,
            ConsoleOptions(ag="human", claude="human", name="alice"),
            plain_console(screen),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(T),
            rng=random.Random(seed_for(AG)),
        )
    )
    return paused, lines, keyboard, session


async def _at_the_budget(
    settings: Settings, screen: Screen
) -> tuple[Settings, QueueLines, Keyboard, asyncio.Task[int]]:
    """A debate of a one-round budget (`r 1` on the card), paused at it after two replies."""
    paused, lines, keyboard, session = _paused_session(settings, screen)
    lines.push("/debate 캐시 계층 선택")
    await screen.shows(T("budget.console_card"))
    lines.push("r 1")
    await screen.shows(T("budget.console_chosen", rounds=1))
    lines.push("y")
    await _reply(lines, keyboard, "첫째 의견")
    await _reply(lines, keyboard, "둘째 의견")
    await screen.shows(T("budget.body", rounds=1))
    return paused, lines, keyboard, session


async def _load(settings: Settings) -> Debate:
    db = await Database.open(str(settings.DATA_DIR / "console.sqlite3"))
    try:
        return await SqliteStore(db).load(1)
    finally:
        await db.close()


async def test_budget_set_on_the_card_pauses_extends_and_concludes(
    settings: Settings, screen: Screen
) -> None:
    paused, lines, keyboard, session = await _at_the_budget(settings, screen)
    mark = len(screen.getvalue())
    lines.push("조금 더 봅시다")  # not a key: kept for the moderator, and the keys are shown
    await screen.shows(T("budget.console_keys"), after=mark)
    lines.push("e")
    await screen.shows(T("budget.extended", user="alice", rounds=2))
    await _reply(lines, keyboard, "셋째 의견")
    await _reply(lines, keyboard, "넷째 의견")
    await screen.shows(T("budget.body", rounds=2))
    lines.push("c")
    await screen.shows(T("budget.concluded", user="alice"))
    await screen.shows(T("console.conclusion_title"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    debate = await _load(paused)
    assert (
        debate.setup.max_rounds == 2
        and debate.floor.turns == 4
        and debate.ending.outcome is Outcome.MAX_ROUNDS
    )
    assert [line.text for line in debate.people.lines] == ["조금 더 봅시다"]


async def test_declaring_consensus_writes_a_conclusion_of_agreement(
    settings: Settings, screen: Screen
) -> None:
    paused, lines, _keyboard, session = await _at_the_budget(settings, screen)
    lines.push("d")
    await screen.shows(T("convergence.declared", user="alice"))
    await screen.shows(T("console.conclusion_title"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    assert (await _load(paused)).ending.outcome is Outcome.CONSENSUS
    assert T("moderator.rules_decision_declared") in screen.getvalue()
    (page,) = (paused.LOCAL_WIKI_DIR).rglob("conclusion.md")
    written = page.read_text(encoding="utf-8")
    assert T("moderator.rules_decision_declared") in written
    assert "합의에 이르지 못했습니다" not in written
