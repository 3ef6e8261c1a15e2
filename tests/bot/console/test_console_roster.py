"""The console seats PARTICIPANTS: a boardroom of two people typing and one machine, each
typed answer stored as its own seat's turn, the people asked as people."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session, run_console
from bot.settings import Settings, SettingsError
from handlers.core.i18n import Strings
from handlers.core.model import Backend, TurnMeta
from handlers.ports import DebaterOutput, TurnRequest
from handlers.rules_moderator import RulesModerator
from tests.bot.console.conftest import Screen, plain_console
from tests.doubles import FakeClock, QueueLines
from tools.store.db import Database
from tools.store.debates import SqliteStore

T = Strings("ko")
PANEL = (
    "ag:ag-relay:AG:arquiteto,claude:claude-cli:Claude:segurança,gemini:gemini-cli:Gemini:produto"
)
GEMINI_WORDS = "2. Redis Streams는 두 번째 시스템을 운영해야 하므로 반대합니다"


class PanelGemini:
    """The machine seat: a boardroom answer in the numbered structure, each round."""

    backend = Backend.GEMINI_CLI

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        text = "\n".join(_answer(request.round, "Gemini")[:-1]).replace("2. Gemini", GEMINI_WORDS)
        return DebaterOutput(text=text, raw=text, meta=TurnMeta(model="fake"))

    async def forget(self, debate_id: int) -> None:
        return None


def _answer(round_number: int, seat: str) -> list[str]:
    if round_number == 1:
        return [
            "1. VOTE: YES",
            f"2. {seat}의 주장: 아웃박스가 안전합니다",
            "3. Risks",
            "- 테이블 증가",
            "- 폴링 지연",
            "4. Conditions: 초당 수백 건 이하",
            "5. Metrics",
            "- 손실 0",
            "- 지연 p99",
            ".",
        ]
    return [
        "1. FINAL VOTE: YES",
        f"2. {seat}: 바뀌지 않음",
        "3. Agreement: Claude",
        "4. Disagreement: Gemini",
        "5. Insight: LISTEN/NOTIFY",
        "6. Condition: 부하 시험",
        ".",
    ]


async def _type_for_whoever_asks(
    screen: Screen, lines: QueueLines, keyboard: Keyboard, round_number: int, mark: int
) -> str:
    """Wait until a person's seat is asked, answer as that seat; which seat it was."""
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    asked = re.findall(
        re.escape(T("console.human_turn", seat="@@")).replace("@@", "(\\w+)"),
        screen.getvalue()[mark:],
    )
    lines.push(*_answer(round_number, asked[-1]))
    return asked[-1]


async def test_a_boardroom_of_two_people_and_a_machine_runs_to_its_end(
    settings: Settings, screen: Screen
) -> None:
    panel = settings.model_copy(update={"PARTICIPANTS": PANEL})
    lines = QueueLines()
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            panel,
            ConsoleOptions(ag="human", claude="human", name="alice"),
            plain_console(screen, width=200),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(T),
            seats={Backend.GEMINI_CLI: PanelGemini()},
            rng=random.Random(1),
        )
    )
    lines.push("/debate 결제 큐를 아웃박스로 옮길까")
    await screen.shows(T("console.card_title"))
    lines.push("boardroom", "y")
    typed: list[str] = []
    for round_number in (1, 2):
        mark = len(screen.getvalue())
        first = await _type_for_whoever_asks(screen, lines, keyboard, round_number, mark)
        await screen.shows(
            T("console.human_turn", seat="AG" if first == "Claude" else "Claude"), after=mark
        )
        second = await _type_for_whoever_asks(screen, lines, keyboard, round_number, mark)
        typed += [first, second]
    await screen.shows(T("console.conclusion_title"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    db = await Database.open(str(panel.DATA_DIR / "console.sqlite3"))
    try:
        store = SqliteStore(db)
        debate = await store.load(1)
        turns = await store.last_turns(1, debate.floor.turns)
    finally:
        await db.close()
    assert debate.setup.format == "boardroom" and set(typed) == {"AG", "Claude"}
    by_seat = {(turn.round, turn.seat): turn.text.splitlines()[1] for turn in turns}
    for round_number in (1, 2):  # each typed answer is stored as its own seat's turn
        assert "AG" in by_seat[(round_number, "ag")], by_seat
        assert "Claude" in by_seat[(round_number, "claude")], by_seat
    assert by_seat[(1, "gemini")].startswith(GEMINI_WORDS)
    second_round = screen.getvalue().split(T("console.human_turn", seat=typed[2]))[-1]
    asked = second_round.split(T("console.human_keys"))[0]
    assert GEMINI_WORDS in asked  # the others' round-1 words, asked as a person
    assert T("console.human_turn", seat=typed[3]) not in asked  # one seat asked at a time


def test_a_typed_seat_not_in_participants_is_refused_by_name(settings: Settings) -> None:
    with pytest.raises(SettingsError, match="nobody"):
        run_console(settings, ConsoleOptions(human=frozenset({"nobody"})))
