"""A person typing a seat in the boardroom and the ledger: asked as a person, never
with the machine's JSON rules, shown the other seats' words, not their raw JSON, and their
typed prose taken as their seat's turn (no repair asked of them, no "no JSON block" notice)."""

from __future__ import annotations

import asyncio
import json
import random

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import Backend, Debate, TurnMeta
from handlers.ports import DebaterOutput, TurnRequest
from handlers.rules_moderator import RulesModerator
from tests.bot.console.conftest import Screen, plain_console
from tests.bot.console.test_console_roster import PANEL
from tests.doubles import FakeClock, QueueLines
from tools.store.db import Database
from tools.store.debates import SqliteStore

T = Strings("ko")
ARGUMENT = "아웃박스는 결제와 같은 트랜잭션에 묶여 유실이 없습니다"
OPINION = "인스턴스가 하나뿐이면 in-process LRU가 운영 부담이 가장 적습니다"


class JsonMachine:
    """A machine seat that answers in JSON: the boardroom's object, or the ledger's block."""

    def __init__(self, backend: Backend, ledger: bool = False) -> None:
        self.backend, self._ledger = backend, ledger

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        if self._ledger:
            block = {
                "opinion": OPINION,
                "stance": "disagree",
                "agreed": [],
                "contested": [],
                "concessions": [],
            }
            text = f"```json\n{json.dumps(block, ensure_ascii=False)}\n```"
        else:
            text = json.dumps(
                {
                    "vote": "no",
                    "argument": ARGUMENT,
                    "risks": ["테이블 증가", "폴링 지연"],
                    "conditions": "초당 수백 건 이하",
                    "metrics": ["손실 0", "지연 p99"],
                    "final_vote": "no",
                    "agreement": "AG",
                    "disagreement": "Claude",
                    "insight": "LISTEN/NOTIFY",
                    "consensus_condition": "부하 시험",
                },
                ensure_ascii=False,
            )
        return DebaterOutput(text=text, raw=text, meta=TurnMeta(model="fake"))

    async def forget(self, debate_id: int) -> None:
        return None


def asked_texts(screen: Screen) -> list[tuple[str, str]]:
    """(seat, what it was shown) for every time a person was asked, in order."""
    shown = screen.getvalue()
    found = []
    for seat in ("AG", "Claude"):
        for part in shown.split(T("console.human_turn", seat=seat))[1:]:
            found.append((seat, part.split(T("console.human_keys"))[0]))
    return found


async def answer_each_ask(
    screen: Screen, lines: QueueLines, keyboard: Keyboard, asks: int, words: dict[str, str]
) -> None:
    """Type each seat's prose when it is asked (`asks` times in all, one after another)."""
    mark = 0
    for _ in range(asks):
        await screen.shows(T("console.human_keys"), after=mark)  # the next ask is on screen
        await asyncio.wait_for(keyboard.composing.wait(), 10)
        seat = max(words, key=lambda s: screen.getvalue().rfind(T("console.human_turn", seat=s)))
        mark = len(screen.getvalue())
        lines.push(*words[seat].splitlines(), ".")


def assert_asked_in_words(asked: list[tuple[str, str]], others: str) -> None:
    """No JSON rule and no raw JSON of another seat in any text a person was given."""
    assert asked
    for seat, text in asked:
        assert "JSON" not in text and "json" not in text and '{"' not in text, (seat, text)
    assert any(others in text for _, text in asked), asked  # the machine's words, shown


async def stored(settings: Settings) -> tuple[Debate, list[tuple[int, str, str]]]:
    """The console's debate and its turns (round, seat, text) as stored."""
    db = await Database.open(str(settings.DATA_DIR / "console.sqlite3"))
    try:
        store = SqliteStore(db)
        debate = await store.load(1)
        turns = await store.last_turns(1, debate.floor.turns)
        return debate, [(t.round, t.seat, t.text) for t in turns]
    finally:
        await db.close()


async def test_a_boardroom_person_is_asked_in_words_and_their_prose_counts(
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
            seats={Backend.GEMINI_CLI: JsonMachine(Backend.GEMINI_CLI)},
            rng=random.Random(1),
        )
    )
    lines.push("/debate 결제 큐를 아웃박스로 옮길까")
    await screen.shows(T("console.card_title"))
    lines.push("boardroom", "y")
    words = {
        "AG": "찬성\n유실이 없다는 점이 가장 중요합니다",
        "Claude": "조건부\n부하 시험 뒤에 정합시다",
    }
    await answer_each_ask(screen, lines, keyboard, 4, words)  # two rounds, never a repair
    await screen.shows(T("console.question_title"))  # a divided panel: the people decide
    lines.push("아웃박스로 갑니다")
    await screen.shows(T("console.conclusion_title"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    asked = asked_texts(screen)
    assert sorted(seat for seat, _ in asked) == ["AG", "AG", "Claude", "Claude"]
    assert_asked_in_words(asked, ARGUMENT)
    debate, turns = await stored(panel)
    for seat, typed in (("ag", words["AG"]), ("claude", words["Claude"])):
        assert [(r, text) for r, s, text in turns if s == seat] == [(1, typed), (2, typed)]
    votes = {key: value for key, value in debate.moderation.outputs if key.startswith("vote/")}
    assert votes == {
        "vote/1/ag": "yes",
        "vote/2/ag": "yes",
        "vote/1/claude": "conditional",
        "vote/2/claude": "conditional",
        "vote/1/gemini": "no",
        "vote/2/gemini": "no",
    }


async def test_a_ledger_person_is_asked_in_words_and_their_prose_counts(
    settings: Settings, screen: Screen
) -> None:
    lines = QueueLines()
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", name="alice"),
            plain_console(screen, width=200),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(T),
            seats={Backend.CLAUDE_CLI: JsonMachine(Backend.CLAUDE_CLI, ledger=True)},
            rng=random.Random(1),
        )
    )
    lines.push("/debate 캐시 계층 선택")
    await screen.shows(T("console.card_title"))
    lines.push("ledger", "y")
    words = {"AG": "Redis가 맞습니다.\n인스턴스가 늘어나면 일관성이 필요합니다."}
    await answer_each_ask(screen, lines, keyboard, 2, words)  # a turn a round, no repair
    await screen.shows(T("console.conclusion_title"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    asked = asked_texts(screen)
    assert [seat for seat, _ in asked] == ["AG", "AG"]
    assert_asked_in_words(asked, OPINION)
    _, turns = await stored(settings)
    assert [text for _, seat, text in turns if seat == "ag"] == [words["AG"]] * 2
    assert T("turn.no_block", seat="AG") not in screen.getvalue()
