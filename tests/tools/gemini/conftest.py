"""The moderator's rig: a loopback fake Gemini, the real google-genai client, a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pytest
from google import genai
from google.genai import types

from handlers.core.i18n import Strings
from handlers.core.model import Participant
from handlers.rules_moderator import RulesModerator
from tests.fakes.fake_gemini import FakeGemini
from tools.gemini.api import GeminiApiBackend
from tools.gemini.core import GeminiModerator
from tools.store.db import Database
from tools.store.quota import ModeratorQuota

MODEL = "gemini-flash-latest"


@dataclass
class Sleeps:
    """The injected sleep: records each requested wait and returns at once."""

    waits: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@dataclass
class Day:
    """The injected calendar day, moved by hand."""

    today: date = date(2026, 11, 30)

    def __call__(self) -> date:
        return self.today


@pytest.fixture(autouse=True)
def _no_vertex(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    monkeypatch.delenv("GOOGLE_GEMINI_BASE_URL", raising=False)


@pytest.fixture
async def fake() -> AsyncIterator[FakeGemini]:
    server = await FakeGemini(auto=True).start()
    yield server
    await server.stop()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(str(tmp_path / "moderator.sqlite3"))
    yield database
    await database.close()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def day() -> Day:
    return Day()


@pytest.fixture
def rules() -> RulesModerator:
    return RulesModerator(Strings("ko"))


MakeModerator = Callable[..., GeminiModerator]


@pytest.fixture
async def make_moderator(
    fake: FakeGemini, db: Database, sleeps: Sleeps, day: Day, rules: RulesModerator
) -> AsyncIterator[MakeModerator]:
    """Build GeminiModerators on the real SDK pointed at the fake; all are closed afterwards."""
    made: list[GeminiModerator] = []

    def build(
        budget: int = 1000,
        timeout_s: float = 10.0,
        language: str = "ko",
        members: tuple[Participant, ...] = (),
    ) -> GeminiModerator:
        client = genai.Client(
            api_key="test-key",
            http_options=types.HttpOptions(base_url=fake.url, api_version="v1beta"),
        )
        moderator = GeminiModerator(
            GeminiApiBackend(client, MODEL, timeout_s),
            ModeratorQuota(db, budget, day),
            language=language,
            sleep=sleeps,
            rules=rules,
            members=members,
        )
        made.append(moderator)
        return moderator

    yield build
    for moderator in made:
        await moderator.aclose()
