"""The console read from a script (stdin not a terminal) as a keyboard would type it, and the
keys a human seat's turn obeys: `s`, `/quit`, Ctrl-D and a lone '.'."""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
from pathlib import Path

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import AG
from handlers.rules_moderator import RulesModerator
from tests.bot.console.conftest import Screen, plain_console, seed_for
from tests.doubles import FakeClock, QueueLines

T = Strings("ko")
ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "console_session.txt"
COMMAND = "debate-room console --moderator rules --ag human --claude human"


def start(settings: Settings, screen: Screen, keyboard: Keyboard) -> asyncio.Task[int]:
    return asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", claude="human", name="alice"),
            plain_console(screen, width=200),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(T),
            rng=random.Random(seed_for(AG)),
        )
    )


def entry_point() -> list[str]:
    """`debate-room` as installed next to this Python (else the same module run directly)."""
    script = Path(sys.executable).parent / "debate-room"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot"]


def test_the_readme_example_session_runs_a_whole_debate_from_a_file(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"{COMMAND} < examples/console_session.txt" in readme
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "CLAUDE_"))}
    env |= {"DATA_DIR": str(tmp_path / "data"), "LOCAL_WIKI_DIR": str(tmp_path / "wiki")}
    with EXAMPLE.open("rb") as script:
        result = subprocess.run(
            [*entry_point(), *COMMAND.split()[1:]],
            stdin=script,
            cwd=tmp_path,
            env=env,
            capture_output=True,
            timeout=120,
            check=False,
        )
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0, out + err
    assert "Traceback" not in out + err
    assert T("console.conclusion_title") in out and "종료 · 합의" in out
    assert T("console.running_keys") not in out  # no reply line was taken for a command
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("```", "{", "/debate")) and line not in ("y", "."):
            assert line in out, line  # every typed reply line reached a reply
    assert (tmp_path / "wiki" / "debates").is_dir()


async def test_a_script_given_all_at_once_is_read_as_typed(
    settings: Settings, screen: Screen
) -> None:
    lines = QueueLines()
    lines.push(*EXAMPLE.read_text(encoding="utf-8").splitlines())
    lines.close()  # every line is there before the first is read, as with `< file`
    session = start(settings, screen, Keyboard(lines, paced=True))
    assert await asyncio.wait_for(session, 30) == 0
    shown = screen.getvalue()
    assert T("console.conclusion_title") in shown and T("console.running_keys") not in shown
    assert "동의합니다. 옮기는 기준을 모니터링으로 확인하면 됩니다." in shown  # the last reply


async def test_s_during_a_human_seats_turn_stops_the_debate(
    settings: Settings, screen: Screen
) -> None:
    lines = QueueLines()
    keyboard = Keyboard(lines, paced=True)
    lines.push("/debate 로그 보관 기간", "y", "첫 줄을 쓰다가", "s")
    session = start(settings, screen, keyboard)
    await screen.shows("종료 · 중단됨")
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0
    shown = screen.getvalue()
    assert T("console.conclusion_title") in shown
    assert "첫 줄을 쓰다가" not in shown.split(T("console.human_turn", seat="AG"))[-1]


async def test_quit_during_a_human_seats_turn_leaves_and_the_debate_resumes_later(
    settings: Settings, screen: Screen
) -> None:
    lines = QueueLines()
    lines.push("/debate 로그 보관 기간", "y", "/quit")
    session = start(settings, screen, Keyboard(lines, paced=True))
    assert await asyncio.wait_for(session, 20) == 0
    shown = screen.getvalue()
    assert T("console.bye", db=str(settings.DATA_DIR / "console.sqlite3")) in shown
    assert T("console.conclusion_title") not in shown  # left, not stopped: it resumes
    again, more = Screen(), QueueLines()
    session = start(settings, again, Keyboard(more, paced=True))
    await again.shows(T("console.resumed", id=1))
    more.push("s")
    await again.shows("종료 · 중단됨")
    more.close()
    assert await asyncio.wait_for(session, 20) == 0


async def test_a_lone_dot_passes_the_turn_without_a_timeout_or_a_retry(
    settings: Settings, screen: Screen
) -> None:
    lines = QueueLines()
    lines.push("/debate 로그 보관 기간", "y", ".", "s")
    lines.close()
    session = start(settings, screen, Keyboard(lines, paced=True))
    assert await asyncio.wait_for(session, 20) == 0
    shown = screen.getvalue()
    assert T("console.human_pass_text") in shown
    assert "timeout" not in shown and "다시 시도" not in shown


def test_the_demo_ends_by_suggesting_the_command_that_runs_above() -> None:
    for language in LANGUAGES:
        last = Strings(language)("console.demo_end")
        found = re.search(r"`(debate-room console[^`]*)`", last)
        assert found is not None and found.group(1) == COMMAND, language
