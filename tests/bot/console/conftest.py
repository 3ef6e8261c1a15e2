"""The console's rig: a screen that can be awaited, scripted typing, fakes for the ports."""

from __future__ import annotations

import asyncio
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import (
    AG,
    CLAUDE,
    TurnMeta,
)
from handlers.ports import DebaterOutput, TurnRequest
from handlers.rules_moderator import RulesModerator
from tests.doubles import FakeClock, QueueLines


class Screen(io.StringIO):
    """What the console printed; `shows(text)` waits (under a timeout) until it appears."""

    def __init__(self) -> None:
        super().__init__()
        self._waiters: list[tuple[str, int, asyncio.Event]] = []

    def write(self, text: str) -> int:
        written = super().write(text)
        value = self.getvalue()
        for wanted, after, event in self._waiters:
            if wanted in value[after:]:
                event.set()
        return written

    async def shows(self, text: str, *, after: int = 0, timeout: float = 10.0) -> None:
        """Wait until `text` is on the screen (past position `after`)."""
        if text in self.getvalue()[after:]:
            return
        event = asyncio.Event()
        self._waiters.append((text, after, event))
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            shown = self.getvalue()
            raise AssertionError(f"{text!r} never appeared; the screen:\n{shown}") from None


def plain_console(screen: io.StringIO, width: int = 100) -> Console:
    """A console without colours, as in a pipe."""
    return Console(file=screen, width=width, color_system=None, highlight=False)


class HangingDebater:
    """A seat that never answers until its turn is cancelled (a Stop)."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.requests: list[TurnRequest] = []
        self.started = asyncio.Event()
        self.cancelled = asyncio.Event()

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        self.requests.append(request)
        self.started.set()
        try:
            await asyncio.Event().wait()
        finally:
            self.cancelled.set()
        return DebaterOutput(text="never", raw="never", meta=TurnMeta())

    async def forget(self, debate_id: int) -> None:
        return None


def seed_for(first: str) -> int:
    """A seed whose first draw of the speaking order gives `first` the first turn."""
    for seed in range(100):
        if random.Random(seed).choice((AG, CLAUDE)) == first:
            return seed
    raise AssertionError("no seed")


def contract_reply(opinion: str, **fields: object) -> list[str]:
    """A reply typed line by line: prose, then the JSON block in a fence."""
    block = json.dumps({"opinion": opinion, **fields}, ensure_ascii=False)
    return ["제 의견입니다.", "```json", block, "```"]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings of a throwaway folder, read from no `.env`."""
    return Settings(
        _env_file=None,
        DATA_DIR=tmp_path / "data",
        DATABASE_PATH=tmp_path / "data" / "bot.sqlite3",
        LOCAL_WIKI_DIR=tmp_path / "wiki",
        DETECT_MIN_NEW_MESSAGES=2,
        DETECT_COOLDOWN_SECONDS=0,
        MAX_ROUNDS=2,
        BUDGET_PAUSE=False,  # these debates end at the round limit; test_budget pauses
        RETRY_WAIT_SCALE=0,
        LANGUAGE="ko",
    )


@pytest.fixture
def screen() -> Iterator[Screen]:
    yield Screen()


def rules_session(
    settings: Settings, screen: io.StringIO
) -> tuple[QueueLines, Keyboard, asyncio.Task[int]]:
    """A Korean console session with both seats typed and the rules moderator, Claude drawn
    first: the scripted lines, the keyboard, and the running session."""
    lines = QueueLines()
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="human", claude="human"),
            plain_console(screen),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(Strings("ko")),
            rng=random.Random(seed_for(CLAUDE)),
        )
    )
    return lines, keyboard, session
