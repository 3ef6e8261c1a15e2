"""`debate-room console` driven by scripted typing: chat, card, human seats, questions, Stop."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path

import pytest

import prompts
from bot.__main__ import main
from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Action, Backend, Decision, UserQuestion
from handlers.rules_moderator import RulesModerator
from tests.bot.console.conftest import (
    HangingDebater,
    Screen,
    contract_reply,
    plain_console,
    rules_session,
    seed_for,
)
from tests.doubles import TOPIC, FakeClock, QueueLines, ScriptedModerator

T = Strings("ko")


def wiki_files(settings: Settings) -> dict[str, Path]:
    folders = list((Path(settings.LOCAL_WIKI_DIR) / "debates").iterdir())
    assert len(folders) == 1
    return {path.stem: path for path in folders[0].glob("*.md")}


def _opened(
    settings: Settings,
    screen: Screen,
    keyboard: Keyboard,
    moderator: ScriptedModerator,
    claude: HangingDebater,
    install_signals: bool = False,
) -> asyncio.Task[int]:
    """The console running: alice at the keyboard, AG typed by her, Claude's seat `claude`."""
    return asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", claude="human", name="alice"),
            plain_console(screen),
            keyboard,
            FakeClock(),
            moderator=moderator,
            seats={Backend.CLAUDE_CLI: claude},
            rng=random.Random(seed_for(AG)),
            install_signals=install_signals,
        )
    )


async def _chat_and_open(screen: Screen, lines: QueueLines) -> None:
    """Two people talk about the cache, the card comes, and alice opens the debate."""
    lines.push(
        "캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네",
        "bob: 멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이 고민이라 장단점이 애매하다",
    )
    await screen.shows(T("console.card_title"))
    lines.push("y")


@pytest.mark.parametrize("stop_with", ["key", "ctrl-c"])
async def test_chat_is_detected_approved_answered_by_a_person_and_stopped(
    settings: Settings, screen: Screen, stop_with: str
) -> None:
    lines, moderator, claude = QueueLines(), ScriptedModerator(), HangingDebater(CLAUDE)
    keyboard = Keyboard(lines)
    session = _opened(settings, screen, keyboard, moderator, claude, stop_with == "ctrl-c")
    await _chat_and_open(screen, lines)
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    ag_reply = [
        "AG 첫 줄: Redis가 맞습니다.",
        "",
        "둘째 줄: 멀티 인스턴스에서 일관성이 필요합니다.",
    ]
    lines.push(*ag_reply, ".")
    await asyncio.wait_for(claude.started.wait(), 10)
    if stop_with == "key":
        lines.push("s")
    else:
        os.kill(os.getpid(), signal.SIGINT)
    await asyncio.wait_for(claude.cancelled.wait(), 10)
    await screen.shows(T("console.conclusion_title"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    shown = screen.getvalue()
    [window] = moderator.windows
    assert [(line.author_name, line.author_id) for line in window] == [("alice", 1), ("bob", 2)]
    for expected in (
        T("console.card_title"),
        f"{T('console.card_topic')}: {TOPIC}",
        T("console.card_opened", user="alice"),
        T("console.human_turn", seat="AG"),
        "\n".join(ag_reply),  # the person's reply, whole, as typed
        "라운드 1/2 · 발언: AG",
        "라운드 1/2 · 발언: Claude",
        T("debate.stopped_by", user="alice"),
        "in-process LRU로 시작하고 인스턴스가 3개를 넘으면 Redis로 전환",
        "종료 · 중단됨",
    ):
        assert expected in shown, expected
    assert T("console.working", seat="Claude") in shown  # the CLI seat shows it works...
    assert T("console.working", seat="AG") not in shown  # ...the person types in plain view
    # the opening prompt the person answered was shown, and Claude got the reply verbatim
    assert TOPIC in shown.split(T("console.human_turn", seat="AG"))[1]
    assert "\n".join(ag_reply) in claude.requests[0].prompt
    pages = wiki_files(settings)
    assert "\n".join(ag_reply) in pages["round-log"].read_text(encoding="utf-8")
    assert "인스턴스가 3개를 넘으면 Redis로 전환" in pages["conclusion"].read_text(encoding="utf-8")


async def test_rules_mode_shortcut_question_answer_and_consensus(
    settings: Settings, screen: Screen
) -> None:
    lines = QueueLines()
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", claude="human", name="alice"),
            plain_console(screen),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(T),
            rng=random.Random(seed_for(AG)),
        )
    )
    await screen.shows(T("console.shortcut_label"))
    lines.push("/debate 캐시 계층 선택", "y")
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    question = {"to": "user", "text": "운영팀이 Redis 클러스터를 관리할 수 있나요?"}
    lines.push(*contract_reply("LRU로 충분합니다.", stance="agree", question=question), ".")
    await screen.shows(T("console.question_title"))
    lines.push("아니요, 운영 인력이 없습니다")
    mark = len(screen.getvalue())
    await screen.shows(T("console.human_turn", seat="Claude"), after=mark)
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    action = {"page": "Working-Document", "mode": "replace", "content": "# 결정\n- LRU로 시작"}
    lines.push(*contract_reply("동의합니다. LRU로 시작합시다.", stance="agree", wiki_action=action))
    lines.push(".")
    await screen.shows("종료 · 합의")
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    shown = screen.getvalue()
    claude_prompt = shown.split(T("console.human_turn", seat="Claude"))[1]
    # A person is shown AG's words, not its raw JSON, and asked as a person.
    assert "LRU로 충분합니다." in claude_prompt and '"opinion"' not in claude_prompt
    assert prompts.load("debate_reply_person", "ko") in claude_prompt
    assert "```json" not in claude_prompt.split(T("console.human_keys"))[0]
    assert "아니요, 운영 인력이 없습니다" in claude_prompt  # the people's answer
    for expected in (
        "운영팀이 Redis 클러스터를 관리할 수 있나요?",
        T("user.answered", user="alice", answer="아니요, 운영 인력이 없습니다"),
        "사회자: 규칙 모드",
        T("moderator.rules_decision_agreed"),
        "LRU로 충분합니다.",
        "동의합니다. LRU로 시작합시다.",
    ):
        assert expected in shown, expected
    assert T("moderator.mode_rules") not in shown  # rules from the start is no news
    # The people chose the rules: said plainly, never as a fallback's warning.
    assert T("degraded.chosen_rules") in shown and T("degraded.line") not in shown
    pages = wiki_files(settings)
    document = pages["working-document"].read_text(encoding="utf-8")
    assert "- LRU로 시작" in document
    conclusion = pages["conclusion"].read_text(encoding="utf-8")
    assert T("degraded.line") not in conclusion and T("wiki.conclusion.by_rules") in conclusion


async def test_end_of_input_while_a_person_types_stops_the_debate_with_a_conclusion(
    settings: Settings, screen: Screen
) -> None:
    lines, keyboard, session = rules_session(settings, screen)
    lines.push("/debate 로그 보관 기간", "y")
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
    shown = screen.getvalue()
    assert T("console.input_ended") in shown  # says why it stops
    assert "종료 · 중단됨" in shown and T("console.conclusion_title") in shown
    assert "CLI" not in shown.split(T("console.input_ended"))[1]  # not a CLI failure


async def test_a_card_left_open_is_there_after_a_restart(
    settings: Settings, screen: Screen
) -> None:
    options = ConsoleOptions(ag="human", claude="human", name="alice")
    first = QueueLines()
    first.push("/debate 배포 주기")
    session = asyncio.create_task(
        console_session(
            settings,
            options,
            plain_console(screen),
            Keyboard(first),
            FakeClock(),
            moderator=RulesModerator(T),
        )
    )
    await screen.shows(T("console.card_title"))
    first.push("/quit")
    assert await asyncio.wait_for(session, 20) == 0
    assert (
        screen.getvalue().count(T("console.bye", db=str(settings.DATA_DIR / "console.sqlite3")))
        == 1
    )

    again, lines = Screen(), QueueLines()
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            settings,
            options,
            plain_console(again),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(T),
            rng=random.Random(seed_for(AG)),
        )
    )
    await again.shows(T("console.resumed", id=1))
    assert T("console.card_title") not in again.getvalue()  # shown once, not twice
    lines.push("y")
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
    assert T("console.card_opened", user="alice") in again.getvalue()


async def test_lines_mean_what_the_debate_waits_for(settings: Settings, screen: Screen) -> None:
    lines = QueueLines()
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", claude="human"),
            plain_console(screen),
            Keyboard(lines),
            FakeClock(),
            moderator=ScriptedModerator(),
        )
    )
    lines.push("/debate 주제", "/nope", "?")
    lines.push(
        "alice: 캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네",
        "bob: 멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이 고민이라 장단점이 애매하다",
        "글쎄요",
        "n",
    )
    await screen.shows(T("console.card_declined"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
    shown = screen.getvalue()
    assert T("console.shortcut_off") in shown  # with Gemini, chat starts debates, not /debate
    assert T("console.unknown_command", command="/nope") in shown
    assert T("console.help") in shown
    assert T("console.card_waiting") in shown  # neither y nor n: the card still waits
    assert shown.count(T("console.card_title")) == 1  # from the chat, not from /debate


def test_the_console_refuses_to_start_without_the_claude_cli(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CLAUDE_BIN", str(tmp_path / "no-such-claude"))
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "empty.env").write_text("")
    assert main(["--env-file", str(tmp_path / "empty.env"), "console"]) == 2
    err = capsys.readouterr().err
    assert "CLAUDE_BIN" in err and "--claude human" in err


async def test_a_question_is_answered_with_an_option_number(
    settings: Settings, screen: Screen
) -> None:
    lines, moderator, claude = QueueLines(), ScriptedModerator(), HangingDebater(CLAUDE)
    question = UserQuestion("운영팀이 Redis 클러스터를 관리할 수 있나요?", ("예", "아니요"))
    moderator.decisions.append(Decision(action=Action.ASK_USER, user_question=question))
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", claude="human", name="alice"),
            plain_console(screen),
            keyboard,
            FakeClock(),
            moderator=moderator,
            seats={Backend.CLAUDE_CLI: claude},
            rng=random.Random(seed_for(AG)),
        )
    )
    lines.push("alice: 캐시를 Redis로 갈지 LRU로 갈지 정해야 하는데 장단점이 애매해서 고민입니다")
    lines.push("bob: 멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이 걱정이라 결정이 어렵네")
    lines.push("y")
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.push("LRU로 충분합니다.", ".")
    await screen.shows("2. 아니요")
    lines.push("2")
    await asyncio.wait_for(claude.started.wait(), 10)
    lines.push("s")
    await asyncio.wait_for(claude.cancelled.wait(), 10)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
    assert T("user.answered", user="alice", answer="아니요") in screen.getvalue()
    assert (
        "아니요" in claude.requests[0].prompt and "LRU로 충분합니다." in claude.requests[0].prompt
    )


async def test_skip_and_steelman_are_typed_as_their_controls(
    settings: Settings, screen: Screen
) -> None:
    """`/steelman` and `/skip` are the controls Discord shows as buttons: Claude's hanging turn
    is skipped, and AG's next turn (typed by the person) is asked for, and shown as, a
    steelman."""
    lines, claude = QueueLines(), HangingDebater(CLAUDE)
    keyboard = Keyboard(lines)
    session = _opened(settings, screen, keyboard, ScriptedModerator(), claude)
    await _chat_and_open(screen, lines)
    await asyncio.wait_for(keyboard.composing.wait(), 10)
    lines.push("AG: Redis가 맞습니다.", ".")
    await asyncio.wait_for(claude.started.wait(), 10)
    keyboard.composing.clear()
    lines.push("/steelman", "/skip")
    await screen.shows(T("debate.skipped_by", user="alice", seat="Claude"))
    await screen.shows(T("steelman.requested", user="alice"))
    await asyncio.wait_for(keyboard.composing.wait(), 10)  # AG's next turn, typed
    await screen.shows("스틸맨 (alice님의 요청)")  # its brief asks for the steelman
    lines.push("스틸맨: LRU 쪽의 가장 강한 논거는 운영 부담이 없다는 점입니다.", ".")
    await screen.shows(T("steelman.turn", turn=3, seat="AG"))
    lines.push("/steelman")  # AG did; Claude still owes its steelman: not offered
    await screen.shows(T("console.control_not_now", control="steelman"))
    lines.push("s")
    await screen.shows(T("console.conclusion_title"))
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
