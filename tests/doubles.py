"""Test doubles shared by every test folder: the one clock fake, the one scripted moderator,
and typed input lines for the console."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from handlers.core.model import (
    Action,
    ChatLine,
    Conclusion,
    Debate,
    Decision,
    Detection,
    ModeratorView,
    Phase,
    Proposal,
    Setup,
)
from handlers.ports import ModeratorUnavailable, TaskRequest
from tools.store.debate_rows import FLAT_FIELDS

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def changed(debate: Debate, **fields: Any) -> Debate:
    """`debate` with `fields` changed, each named as the flat layout named it (`round`,
    `paused`, `outcome`: tools/store/debate_rows.py), so a test states only what it needs."""
    parts: dict[str, dict[str, Any]] = {}
    top: dict[str, Any] = {}
    for name, value in fields.items():
        if name in FLAT_FIELDS and not (name == "people" and not isinstance(value, tuple)):
            part, field = FLAT_FIELDS[name]
            parts.setdefault(part, {})[field] = value
        else:
            top[name] = value
    for part, changes in parts.items():
        top[part] = replace(top.get(part, getattr(debate, part)), **changes)
    return replace(debate, **top)


def draft(proposal: Proposal, max_rounds: int, now: datetime) -> Debate:
    """A proposed debate as the handler drafts one for `Store.create`."""
    return Debate(0, proposal, Phase.PROPOSED, now, setup=Setup(max_rounds))


TOPIC = "캐시 계층 선택 — Redis vs in-process LRU"
QUESTION = "다음 분기 배포에서 어떤 캐시 계층을 쓸 것인가?"


class FakeClock:
    """The test clock: nothing ever waits.

    By default time stands at `start` and moves only when slept on (or `advance`d). With
    `wall=True` it is the wall clock plus `offset` (for tests against a live fake Discord,
    whose own timestamps are real): sleeping then moves nothing.
    """

    def __init__(self, start: datetime = T0, *, wall: bool = False) -> None:
        self.t = start
        self.offset = timedelta()
        self.slept: list[float] = []
        self._wall = wall

    def now(self) -> datetime:
        """The fake now."""
        return datetime.now(UTC) + self.offset if self._wall else self.t

    async def sleep(self, seconds: float) -> None:
        """Record the wait, move the time (unless on the wall clock), let others run."""
        self.slept.append(seconds)
        if not self._wall:
            self.t += timedelta(seconds=seconds)
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        """Move the time by hand."""
        self.t += timedelta(seconds=seconds)
        self.offset += timedelta(seconds=seconds)


class ScriptedModerator:
    """Detection says yes; judgements come from a queue (CONTINUE once it is empty).

    `on_call` hears "judge" and "conclude" before each answer (the engine's crash plan).
    """

    def __init__(self, on_call: Callable[[str], None] | None = None) -> None:
        self.decisions: deque[Decision] = deque()
        self.windows: list[tuple[ChatLine, ...]] = []
        self.languages: list[str] = []  # the language each detection was asked in
        self.views: list[ModeratorView] = []
        self._on_call = on_call or (lambda name: None)
        self.suggestion = ("", "")  # the suggested format and why, on every detection
        self.confidence: float | None = 0.9  # the probability every detection gives
        # The boardroom's squad (member ids), the kind of decision and why, on every detection.
        self.squad: tuple[tuple[str, ...], str, str] = ((), "", "")
        # A format's task -> its queued outputs (the last one repeats); none: unavailable.
        self.task_outputs: dict[str, list[str]] = {}
        self.task_requests: list[TaskRequest] = []
        self.task_hooks: dict[str, Callable[[], Awaitable[None]]] = {}  # awaited first
        self.conclusions = 0

    @property
    def tasks(self) -> list[TaskRequest]:
        """Every format task asked, in order."""
        return self.task_requests

    def enqueue_task(self, task: str, *outputs: str) -> None:
        """Queue the next outputs of a format's task (none queued: the moderator is out)."""
        self.task_outputs.setdefault(task, []).extend(outputs)

    def enqueue(self, *decisions: Decision) -> None:
        """Queue the next judgements."""
        self.decisions.extend(decisions)

    async def detect(self, window: tuple[ChatLine, ...], language: str = "") -> Detection:
        """A debate about TOPIC, whatever the chat."""
        self.windows.append(window)
        self.languages.append(language)
        return Detection(
            debate_worthy=True,
            topic=TOPIC,
            question=QUESTION,
            reason="open",
            confidence=self.confidence,
            suggested_format=self.suggestion[0],
            format_reason=self.suggestion[1],
            squad=self.squad[0],
            squad_kind=self.squad[1],
            squad_reason=self.squad[2],
        )

    async def judge(self, view: ModeratorView) -> Decision:
        """The next queued decision, or CONTINUE."""
        self._on_call("judge")
        self.views.append(view)
        if self.decisions:
            return self.decisions.popleft()
        return Decision(action=Action.CONTINUE, summary=f"after {view.debate.floor.turns}")

    async def perform(self, request: TaskRequest) -> str:
        """A format's task: the next queued output; none queued: the rules stand in."""
        self._on_call(f"perform:{request.task}")
        self.task_requests.append(request)
        hook = self.task_hooks.pop(request.task, None)
        if hook is not None:
            await hook()
        queued = self.task_outputs.get(request.task)
        if not queued:
            raise ModeratorUnavailable(f"no output scripted for {request.task}")
        return queued.pop(0) if len(queued) > 1 else queued[0]

    async def conclude(self, view: ModeratorView) -> Conclusion:
        """A plain conclusion."""
        self._on_call("conclude")
        self.views.append(view)
        self.conclusions += 1
        return Conclusion(
            decision="in-process LRU로 시작하고 인스턴스가 3개를 넘으면 Redis로 전환",
            agreed=("운영 부담이 작아야 한다",),
            open_issues=("Redis 클러스터 운영 인력",),
        )


class QueueLines:
    """Lines a program pushes (tests, scripted sessions); `close()` ends the input."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()

    def push(self, *lines: str) -> None:
        """Type these lines."""
        for line in lines:
            self._queue.put_nowait(line)

    def close(self) -> None:
        """End the input (like Ctrl-D)."""
        self._queue.put_nowait(None)

    async def readline(self) -> str | None:
        """The next pushed line, or None once closed."""
        line = await self._queue.get()
        if line is None:
            self._queue.put_nowait(None)
        return line
