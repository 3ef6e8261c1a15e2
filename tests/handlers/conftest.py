"""An engine rig: the real DebateHandler and SqliteStore on a database, doubles for the rest.

Every test module here that drives a rig runs twice: on an SQLite file and on a PostgreSQL
database (a module that must stay on one sets `STORES = ("sqlite",)`).
"""

from __future__ import annotations

import asyncio
import inspect
import random
import re
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from handlers import retrying
from handlers.core.effects import Effect
from handlers.core.events import ProposalApproved
from handlers.core.model import DEFAULT_ROSTER, Actor, Backend, Debate, Participant, Proposal, Turn
from handlers.debate_handler import DebateHandler, HandlerConfig
from handlers.ports import Debater
from tests.conftest import STORES
from tests.doubles import FakeClock, ScriptedModerator
from tests.handlers.doubles import (
    CrashPlan,
    FakeDebater,
    FakeRoom,
    FakeWiki,
    Seats,
)
from tests.postgres import PostgresServer
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
        people_ids=(101, 102),
    )


_USES_RIG = re.compile(r"\b(Rig|rig)\b")


class Targets:
    """Where each rig's database is: its SQLite path, or a PostgreSQL database per path (made
    on first use, so a rebuild on the same path finds the same database)."""

    def __init__(self) -> None:
        self.server: PostgresServer | None = None
        self._urls: dict[Path, str] = {}

    async def of(self, path: Path) -> str:
        if self.server is None:
            return str(path)
        if path not in self._urls:
            self._urls[path] = await self.server.new_database()
        return self._urls[path]

    def reset(self, server: PostgresServer | None = None) -> None:
        self.server = server
        self._urls.clear()


TARGETS = Targets()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The modules that drive a rig run on each store."""
    if "store_kind" in metafunc.fixturenames and _USES_RIG.search(
        inspect.getsource(metafunc.module)
    ):
        metafunc.parametrize(
            "store_kind", getattr(metafunc.module, "STORES", STORES), indirect=True
        )


@pytest.fixture(autouse=True)
def no_retry_waits() -> Iterator[None]:
    """The engine's retries are tried as often as ever, without their waits."""
    retrying.set_testing(True)
    yield
    retrying.set_testing(False)


@pytest.fixture(autouse=True)
def store_kind(request: pytest.FixtureRequest) -> Iterator[str]:
    """The store this test's rigs use: `sqlite` unless parametrized."""
    kind = getattr(request, "param", "sqlite")
    TARGETS.reset(request.getfixturevalue("postgres_server") if kind == "postgres" else None)
    yield kind
    TARGETS.reset()


class TickingStore(SqliteStore):
    """The real store; the crash plan may kill the engine right after a step is committed."""

    def __init__(self, db: Database, plan: CrashPlan) -> None:
        super().__init__(db)
        self.plan = plan

    async def save_step(
        self,
        debate: Debate,
        effects: Sequence[Effect],
        turn: Turn | None,
        *args: object,
        **kw: object,
    ) -> None:
        await super().save_step(debate, effects, turn, *args, **kw)  # type: ignore[arg-type]  # the rest passed on as it came
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
    budget_usd: float = 0.0  # BUDGET_USD: the people's budget in dollars (0: rounds only)
    language: str = "ko"
    ticking_store: bool = False  # the plan also counts each committed step (a crash after it)
    make_store: Callable[[Database], SqliteStore] | None = None  # a store of the test's own
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
        self.db = await Database.open(await TARGETS.of(self.path))
        store = TickingStore(self.db, self.plan) if self.ticking_store else SqliteStore(self.db)
        if self.make_store is not None:
            store = self.make_store(self.db)
        self.handler = DebateHandler(
            store.ports(),
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
                roster=self.roster,
                format=self.format,
                budget_pause=self.budget_pause,
                format_options=self.options,
                poll_hours=self.poll_hours,
                budget_usd=self.budget_usd,
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

    async def debate_to_end(self, timeout: float = 20) -> int:
        """Propose, approve as alice, and wait until the debate's work is done; its id."""
        debate = await self.h.propose(proposal())
        assert debate is not None
        await asyncio.wait_for(self.h.wait_idle(debate.id), timeout)
        await self.h.submit(debate.id, ProposalApproved(ALICE))
        await asyncio.wait_for(self.h.wait_idle(debate.id), timeout)
        return debate.id


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = Rig(tmp_path / "engine.sqlite3")
    await r.start()
    yield r
    await r.stop()
