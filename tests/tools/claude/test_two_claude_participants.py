"""One backend, two participants: `claude` and a `critic` persona both on the real `claude`
CLI (against the fake Anthropic API), each in its own session, in a free debate with AG."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from handlers.core.model import AG, CLAUDE, Backend, Participant, Phase
from handlers.ports import Debater
from tests.fakes.fake_anthropic import FakeAnthropic
from tests.handlers.conftest import Rig
from tests.handlers.test_handler_flow import opened
from tests.tools.claude.conftest import READ_ONLY, SYSTEM_PROMPT
from tools.claude.debater import ClaudeCodeDebater
from tools.store.db import Database
from tools.store.sessions import AgentSessions

PERSONA = "a security reviewer who asks what can go wrong"
ROSTER = (
    Participant(AG, Backend.AG_RELAY, "AG"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
    Participant("critic", Backend.CLAUDE_CLI, "Critic", persona=PERSONA),
)
REAL_CLI_WAIT_S = 60.0  # four real CLI runs: seconds on a quiet machine, far more on a busy one
SESSIONS = "SELECT seat, session_id FROM agent_sessions WHERE debate_id = ? ORDER BY seat"


def _first_user_text(body: dict[str, Any]) -> str:
    """The session's first prompt (a request may end in the CLI's own reminder instead)."""
    content = next(m for m in body["messages"] if m["role"] == "user")["content"]
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


async def test_two_participants_on_one_claude_cli_keep_apart_sessions(
    fake: FakeAnthropic, config_dir: Path, tmp_path: Path, claude_bin: str
) -> None:
    def claude_cli(db: Database) -> dict[Backend, Debater]:
        cli = ClaudeCodeDebater(
            AgentSessions(db, CLAUDE),
            binary=claude_bin,
            system_prompt=SYSTEM_PROMPT,
            model=None,
            tools=READ_ONLY,
            timeout_s=60.0,
            max_retries=0,
            max_concurrency=2,
            workdir_root=tmp_path / "data",
            env=fake.cli_env(config_dir),
            keep_api_key=True,  # the fake is reached with a dummy API key
        )
        return {Backend.CLAUDE_CLI: cli}

    rig = Rig(tmp_path / "two-claudes.sqlite3", roster=ROSTER, max_rounds=2, real=claude_cli)
    await rig.start()
    try:
        debate_id = await opened(rig)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), REAL_CLI_WAIT_S)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        turns = await rig.h._turns.last_turns(debate_id, 100)
        by_cli = [t for t in turns if t.seat in (CLAUDE, "critic")]
        assert sorted(t.seat for t in by_cli) == [CLAUDE, CLAUDE, "critic", "critic"]
        assert rig.db is not None
        rows = [(r[0], r[1]) for r in await rig.db.fetch_all(SESSIONS, (debate_id,))]
        assert [seat for seat, _ in rows] == [CLAUDE, "critic"] and rows[0][1] != rows[1][1]
        # The persona goes to the critic's session only: Claude's history never holds it.
        bodies = [b for b in fake.messages() if b.get("messages")]
        critic = [b for b in bodies if PERSONA in _first_user_text(b)]
        claude = [b for b in bodies if PERSONA not in _first_user_text(b)]
        assert len(critic) >= 2 and claude
        assert all(PERSONA not in json.dumps(b["messages"], ensure_ascii=False) for b in claude)
    finally:
        await rig.stop()
