"""An engine rig: the real DebateHandler and SqliteStore on a file, doubles for the rest."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from handlers.debate_handler import DebateHandler, HandlerConfig
from handlers.events import Effect
from handlers.model import DEFAULT_ROSTER, Actor, Backend, Debate, Participant, Proposal, Turn
from handlers.ports import Debater
from tests.doubles import FakeClock, ScriptedModerator
from tests.handlers.doubles import (
    CrashPlan,
    FakeDebater,
    FakeRoom,
    FakeWiki,
    Seats,
)
from tools.store.db import Database
from tools.store.debates import SqliteStore

ALICE = Actor(user_id=101, name="alice")
CAROL = Actor(user_id=102, name="carol")
BOB = Actor(user_id=200, name="bob")  # not in the conversation
APPROVER = Actor(user_id=300, name="dana", is_approver=True)


def proposal(topic: str = "캐시 계층 선택 — Redis vs in-process LRU", channel: int = 1) -> Proposal:
    return Proposal(
        channel_id=channel,
        topic=topic,
        question="다음 분기에 어떤 캐시 계층을 쓸 것인가?",
        reason="open decision",
        confidence=0.9,
        context="alice: Redis로 갈지 LRU로 갈지\ncarol: 운영 부담이…",
        participants=(101, 102),
    )


class TickingStore(SqliteStore):
    """The real store; the crash plan may kill the engine right after a step is committed."""

    def __init__(self, db: Database, plan: CrashPlan) -> None:
        super().__init__(db)
        self.plan = plan

    async def save_step(  # type: ignore[override]
        self,
        debate: Debate,
        effects: Sequence[Effect],
        turn: Turn | None,
        *args: object,
        **kw: object,
    ) -> None:
        await super().save_step(debate, effects, turn, *args, **kw)  # type: ignore[arg-type]
        if turn is not None:
            self.plan.tick(f"stored:{turn.seat}")


@dataclass
class Rig:
    """Everything a test drives and inspects; `rebuild()` simulates a restart on the same file."""

    path: Path
    plan: CrashPlan = field(default_factory=CrashPlan)
    seed: int = 7
    max_rounds: int = 3
    roster: tuple[Participant, ...] = DEFAULT_ROSTER
    format: str = "free"
    budget_pause: bool = False  # BUDGET_PAUSE: at max_rounds, wait for Extend / Conclude
    options: tuple[tuple[str, str], ...] = ()  # the formats' option defaults
    poll_hours: int = 0  # POLL_HOURS: a stalemate ends in the people's poll (0: no poll)
    language: str = "ko"
    ticking_store: bool = False  # the plan also counts each committed step (a crash after it)
    missing: tuple[Backend, ...] = ()  # backends with no debater (not configured)
    real: Callable[[Database], dict[Backend, Debater]] | None = None  # real adapters to use
    db: Database | None = None
    handler: DebateHandler | None = None

    def __post_init__(self) -> None:
        self.clock = FakeClock()
        self.room = FakeRoom(self.plan)
        self.wiki = FakeWiki(self.plan)
        self.moderator = ScriptedModerator(self.plan.tick)
        self.debaters = {m.id: FakeDebater(m.id, self.plan) for m in self.roster}

    async def start(self) -> DebateHandler:
        self.db = await Database.open(str(self.path))
        store = TickingStore(self.db, self.plan) if self.ticking_store else SqliteStore(self.db)
        self.handler = DebateHandler(
            store,
            self.moderator,
            {
                m.backend: Seats(m.backend, self.debaters)
                for m in self.roster
                if m.backend not in self.missing
            }
            | (self.real(self.db) if self.real else {}),
            self.wiki,
            self.room,
            self.clock,
            random.Random(self.seed),
            HandlerConfig(
                language=self.language,
                max_rounds=self.max_rounds,
                retry_wait_scale=0.0,
                roster=self.roster,
                format=self.format,
                budget_pause=self.budget_pause,
                format_options=self.options,
                poll_hours=self.poll_hours,
            ),
        )
        return self.handler

    async def rebuild(self) -> DebateHandler:
        await self.stop()
        handler = await self.start()
        await handler.resume_all()
        return handler

    async def stop(self) -> None:
        if self.handler:
            await self.handler.aclose()
        if self.db:
            await self.db.close()
        if not self.plan.fired:  # only a crash makes the engine repeat a port call
            assert not self.room.repeats and not self.wiki.repeats, (
                self.room.repeats,
                self.wiki.repeats,
            )

    @property
    def h(self) -> DebateHandler:
        assert self.handler is not None
        return self.handler


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = Rig(tmp_path / "engine.sqlite3")
    await r.start()
    yield r
    await r.stop()
