"""The console's rig: a screen that can be awaited, scripted typing, fakes for the ports."""

from __future__ import annotations

import asyncio
import io
import json
import random
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from bot.settings import Settings
from handlers.model import (
    AG,
    CLAUDE,
    Action,
    ChatLine,
    Conclusion,
    Decision,
    Detection,
    ModeratorSource,
    ModeratorView,
    TurnMeta,
)
from handlers.ports import DebaterOutput, ModeratorUnavailable, TaskRequest, TurnRequest

TOPIC = "캐시 계층 선택 — Redis vs in-process LRU"


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


class StepClock:
    """Wall time that moves a minute per sleep; nothing waits."""

    def __init__(self) -> None:
        self.t = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.t += timedelta(seconds=seconds)
        await asyncio.sleep(0)


class ScriptedModerator:
    """Detects a debate in any chat it is asked about; continues, or as queued; a plain end."""

    def __init__(self) -> None:
        self.windows: list[tuple[ChatLine, ...]] = []
        self.decisions: deque[Decision] = deque()
        self.views: list[ModeratorView] = []

    async def detect(self, window: tuple[ChatLine, ...]) -> Detection:
        self.windows.append(window)
        return Detection(
            debate_worthy=True,
            topic=TOPIC,
            question="다음 분기에 어떤 캐시 계층을 쓸 것인가?",
            reason="두 선택지의 장단점이 맞서 있습니다",
            confidence=0.9,
        )

    async def judge(self, view: ModeratorView) -> Decision:
        self.views.append(view)
        if self.decisions:
            return self.decisions.popleft()
        return Decision(action=Action.CONTINUE, summary=f"after {view.debate.turns}")

    async def conclude(self, view: ModeratorView) -> Conclusion:
        self.views.append(view)
        return Conclusion(
            decision="지금까지의 결론: 우선 in-process LRU로 시작한다",
            agreed=("운영 부담을 줄인다",),
            open_issues=("인스턴스가 늘면 다시 본다",),
            source=ModeratorSource.GEMINI,
        )

    async def perform(self, request: TaskRequest) -> str:
        raise ModeratorUnavailable(request.task)


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
        _env_file=None,  # type: ignore[call-arg]
        DATA_DIR=tmp_path / "data",
        DATABASE_PATH=tmp_path / "data" / "bot.sqlite3",
        LOCAL_WIKI_DIR=tmp_path / "wiki",
        DETECT_MIN_NEW_MESSAGES=2,
        DETECT_COOLDOWN_SECONDS=0,
        MAX_ROUNDS=2,
        RETRY_WAIT_SCALE=0,
        LANGUAGE="ko",
    )


@pytest.fixture
def screen() -> Iterator[Screen]:
    yield Screen()
