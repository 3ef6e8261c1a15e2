"""A third participant on the real `gemini` CLI (against the loopback fake Gemini API) in a
free debate with AG and Claude: its session is its own, and it reads the others verbatim."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from handlers.core.model import AG, CLAUDE, GEMINI, Backend, Participant, Phase
from handlers.ports import Debater
from tests.bot.console.test_gemini_cli_debater import MODEL, SYSTEM, fake, gemini_bin, home
from tests.fakes.fake_gemini import FakeGemini
from tests.handlers.conftest import Rig
from tests.handlers.test_handler_flow import opened
from tools.gemini.cli_debater import GeminiCliDebater
from tools.store.db import Database
from tools.store.sessions import AgentSessions

__all__ = ["fake", "gemini_bin", "home"]  # the fixtures this module borrows

TRIO = (
    Participant(AG, Backend.AG_RELAY, "AG"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"),
)
SESSIONS = "SELECT seat, session_id FROM agent_sessions WHERE debate_id = ?"


def _block(opinion: str) -> str:
    return "```json\n" + json.dumps({"opinion": opinion, "stance": "partial"}) + "\n```"


@pytest.mark.cli
async def test_a_gemini_cli_participant_debates_with_ag_and_claude(
    gemini_bin: Path, fake: FakeGemini, home: Path, tmp_path: Path
) -> None:
    answers = [_block("제미니 첫 의견: 비용부터 봅시다"), _block("제미니 둘째 의견: LRU로 충분")]
    fake.push(*({"kind": "text", "text": text} for text in answers))
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": fake.url,
    }

    def gemini(db: Database) -> dict[Backend, Debater]:
        cli = GeminiCliDebater(
            AgentSessions(db, AG),
            binary=str(gemini_bin),
            system_prompt=SYSTEM,
            model=MODEL,
            timeout_s=60,
            workdir_root=tmp_path / "gemini",
            env=env,
        )
        return {Backend.GEMINI_CLI: cli}

    rig = Rig(tmp_path / "trio.sqlite3", roster=TRIO, max_rounds=2, real=gemini)
    await rig.start()
    try:
        debate_id = await opened(rig)
        # Two runs of the real CLI (node starting each time): on a loaded machine they alone
        # can take longer than `idle`'s 10 s; the CLI's own timeout bounds each.
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 60)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        turns = await rig.h._turns.last_turns(debate_id, 100)
        said = [t for t in turns if t.seat == GEMINI]
        assert [t.text for t in said] == answers and all(t.meta.model == MODEL for t in said)
        assert said[0].parsed.opinion == "제미니 첫 의견: 비용부터 봅시다"
        # Its session is stored under its own id, and the second call resumed it.
        assert rig.db is not None
        rows = await rig.db.fetch_all(SESSIONS, (debate_id,))
        assert [(r[0], r[1]) for r in rows] == [(GEMINI, said[0].meta.session_id)]
        first, second = fake.generate_requests[0]["text"], fake.generate_requests[1]["text"]
        others = [t for t in turns if t.seat != GEMINI and t.number < said[0].number]
        assert all(t.text in first for t in others)  # the others' turns, verbatim
        assert answers[0] in second  # resumed: its own first answer is in the history
    finally:
        await rig.stop()
