"""Test parts for the bot: a scripted moderator, a movable clock, and AG played by a client.

The Claude seat is tests.engine.doubles.FakeDebater (scripted replies); the real CLI is
tested in tests/claude. AG is the real AgRelayDebater, answered by `AgPlayer`: a second real
discord.py client logged in as the AG account, replying to each tagged prompt in the thread.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import deque
from datetime import UTC, datetime, timedelta

import discord

from handlers.model import (
    Action,
    ChatLine,
    Conclusion,
    Decision,
    Detection,
    ModeratorView,
    UserQuestion,
)
from handlers.ports import ModeratorUnavailable, TaskRequest
from tests.fakes.discord_fixtures import ListeningClient

TOPIC = "캐시 계층 선택 — Redis vs in-process LRU"
QUESTION = "다음 분기 배포에서 어떤 캐시 계층을 쓸 것인가?"
TAG = re.compile(r"\[debate (\d+) · turn (\d+)\]")


def block(opinion: str, stance: str = "partial") -> str:
    """A reply in the debaters' contract: prose, then a fenced JSON block."""
    body = json.dumps({"opinion": opinion, "stance": stance}, ensure_ascii=False)
    return f"Intro.\n\n```json\n{body}\n```"


def asks(text: str, *options: str) -> Decision:
    """The moderator asks the people."""
    return Decision(
        action=Action.ASK_USER, user_question=UserQuestion(text, tuple(options)), summary="s"
    )


class ScriptedModerator:
    """Detection says yes; judgements come from a queue (CONTINUE once it is empty)."""

    def __init__(self) -> None:
        self.decisions: deque[Decision] = deque()
        self.windows: list[tuple[ChatLine, ...]] = []
        self.views: list[ModeratorView] = []
        self.task_outputs: dict[str, str] = {}  # a format's task -> its output

    async def detect(self, window: tuple[ChatLine, ...]) -> Detection:
        self.windows.append(window)
        return Detection(
            debate_worthy=True, topic=TOPIC, question=QUESTION, reason="open", confidence=0.9
        )

    async def judge(self, view: ModeratorView) -> Decision:
        self.views.append(view)
        if self.decisions:
            return self.decisions.popleft()
        return Decision(action=Action.CONTINUE, summary=f"after {view.debate.turns}")

    async def perform(self, request: TaskRequest) -> str:
        if request.task not in self.task_outputs:
            raise ModeratorUnavailable(request.task)
        return self.task_outputs[request.task]

    async def conclude(self, view: ModeratorView) -> Conclusion:
        return Conclusion(
            decision="in-process LRU로 시작하고 인스턴스가 3개를 넘으면 Redis로 전환",
            agreed=("운영 부담이 작아야 한다",),
            open_issues=("Redis 클러스터 운영 인력",),
        )


class MovableClock:
    """The wall clock plus an offset a test moves; waits are skipped (RETRY_WAIT_SCALE=0)."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)


class AgPlayer:
    """AG's account: answers every prompt tagged for it, unless its turn is held."""

    def __init__(self, client: ListeningClient) -> None:
        self.client = client
        self.prompts: dict[int, discord.Message] = {}  # turn -> the prompt's first part
        self.hold: set[int] = set()  # turns AG does not answer (yet)
        self.arrived = asyncio.Condition()
        client.message_listeners.append(self._on_message)

    @property
    def user_id(self) -> int:
        assert self.client.user is not None
        return self.client.user.id

    def reply_for(self, turn: int) -> str:
        """What AG writes for `turn` (it tries to ping everyone, too)."""
        return block(f"AG turn {turn}: @everyone LRU부터 시작합시다.\n\n" + "근거 " * 200)

    async def _on_message(self, message: discord.Message) -> None:
        found = TAG.search(message.content)
        if found is None or not any(u.id == self.user_id for u in message.mentions):
            return
        turn = int(found.group(2))
        self.prompts.setdefault(turn, message)
        async with self.arrived:
            self.arrived.notify_all()
        if turn not in self.hold:
            await self.answer(turn)

    async def answer(self, turn: int) -> None:
        """Post the reply for `turn` in the prompt's channel."""
        await self.prompts[turn].channel.send(self.reply_for(turn))

    async def wait_prompt(self, first_turn: int, timeout: float = 10.0) -> int:
        """The first turn from `first_turn` on whose prompt has arrived."""

        def found() -> int | None:
            return min((t for t in self.prompts if t >= first_turn), default=None)

        async with asyncio.timeout(timeout), self.arrived:
            await self.arrived.wait_for(lambda: found() is not None)
        turn = found()
        assert turn is not None
        return turn
