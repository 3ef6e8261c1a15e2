"""Fixtures for the Claude debater: the fake Anthropic API, the real CLI, a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from handlers.core.model import CLAUDE
from tests.clis import installed_or_skip
from tests.fakes.fake_anthropic import FakeAnthropic, find_claude_bin
from tools.claude.debater import ClaudeCodeDebater
from tools.store.db import Database
from tools.store.sessions import AgentSessions

SYSTEM_PROMPT = "SYSTEM-PROMPT-MARKER: you are one of two debaters; you never write code."
READ_ONLY = "Read,Grep,Glob"

INSERT_DEBATE = """
INSERT INTO debates (id, channel_id, topic, phase, state, created_at, updated_at, ended_at)
VALUES (?, 1, ?, ?, '{}', ?, ?, ?)
"""


@pytest.fixture(scope="session")
def claude_bin() -> str:
    """The real CLI; skipped with a reason when missing, except in CI where it must run."""
    return str(installed_or_skip(find_claude_bin(), "claude"))


@pytest.fixture
def fake() -> Iterator[FakeAnthropic]:
    """A fresh fake Anthropic API for one test."""
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    """A throwaway CLAUDE_CONFIG_DIR; its path also marks this test's CLI processes."""
    path = tmp_path / "claude-config"
    path.mkdir()
    return path


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A real SQLite file with every migration applied."""
    database = await Database.open(str(tmp_path / "debate-room.sqlite3"))
    yield database
    await database.close()


async def add_debate(db: Database, debate_id: int, ended_at: datetime | None = None) -> None:
    """A debates row, so agent_sessions' foreign key holds."""
    now = datetime.now(UTC).isoformat()
    ended = ended_at.isoformat() if ended_at else None
    phase = "concluded" if ended_at else "speaking"
    await db.execute(INSERT_DEBATE, (debate_id, f"topic {debate_id}", phase, now, now, ended))


@pytest.fixture
def make_debater(
    db: Database, fake: FakeAnthropic, config_dir: Path, tmp_path: Path, claude_bin: str
) -> Callable[..., ClaudeCodeDebater]:
    """Build the real debater against the fake; keyword arguments override the defaults."""

    def build(**overrides: Any) -> ClaudeCodeDebater:
        retries = overrides.pop("max_retries", 0)
        values: dict[str, Any] = {
            "binary": claude_bin,
            "system_prompt": SYSTEM_PROMPT,
            "model": None,
            "tools": READ_ONLY,
            "timeout_s": 60.0,
            "max_retries": retries,
            "max_concurrency": 2,
            "workdir_root": tmp_path / "data",
            "env": fake.cli_env(config_dir, retries=retries),
            "keep_api_key": True,  # the fake is reached with a dummy API key
        }
        values.update(overrides)
        return ClaudeCodeDebater(AgentSessions(db, CLAUDE), **values)

    return build
