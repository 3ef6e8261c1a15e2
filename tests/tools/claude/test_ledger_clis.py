"""An orchestrated ledger debate with the real CLIs: Claude on the `claude` CLI (fake
Anthropic API), Gemini on the `gemini` CLI (fake Gemini API), AG on its double. Each round
fans out to all three; round 2 reads exactly the others' round-1 turns; the debate converges
into a ledger and a front page (the moderator's rule fallback: no Gemini moderator here)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from handlers.core.events import ProposalApproved
from handlers.core.model import AG, CLAUDE, GEMINI, Backend, Outcome, Participant, Phase
from handlers.ports import Debater
from tests.clis import GEMINI_BIN, installed_or_skip
from tests.fakes.fake_anthropic import FakeAnthropic
from tests.fakes.fake_gemini import FakeGemini
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.tools.claude.conftest import READ_ONLY, SYSTEM_PROMPT
from tools.claude.debater import ClaudeCodeDebater
from tools.gemini.cli_debater import GeminiCliDebater
from tools.store.db import Database
from tools.store.sessions import AgentSessions

TRIO = (
    Participant(AG, Backend.AG_RELAY, "AG"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"),
)


def turn_text(who: str, n: int, stance: str) -> str:
    block = {
        "opinion": f"{who} round {n}: the steelman, then my point",
        "stance": stance,
        "agreed": ["LRU first"],
        "contested": [f"{who} doubts {n}"],
        "concessions": [],
    }
    return "```json\n" + json.dumps(block) + "\n```"


@pytest.fixture
async def gemini_api() -> AsyncIterator[FakeGemini]:
    server = await FakeGemini().start()
    yield server
    await server.stop()


@pytest.mark.cli
async def test_an_orchestrated_ledger_with_the_real_clis(
    fake: FakeAnthropic,
    config_dir: Path,
    claude_bin: str,
    gemini_api: FakeGemini,
    tmp_path: Path,
) -> None:
    gemini_bin = installed_or_skip(GEMINI_BIN, "gemini")
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (home / ".gemini" / "settings.json").write_text(json.dumps(auth), encoding="utf-8")
    claude_said = [turn_text(CLAUDE, 1, "partial"), turn_text(CLAUDE, 2, "agree")]
    gemini_said = [turn_text(GEMINI, 1, "partial"), turn_text(GEMINI, 2, "agree")]
    fake.script_replies(*claude_said)
    gemini_api.push(*({"kind": "text", "text": text} for text in gemini_said))
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": gemini_api.url,
    }

    def clis(db: Database) -> dict[Backend, Debater]:
        claude = ClaudeCodeDebater(
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
            keep_api_key=True,  # the fake takes a dummy key
        )
        gemini = GeminiCliDebater(
            AgentSessions(db, AG),
            binary=str(gemini_bin),
            system_prompt=SYSTEM_PROMPT,
            model="gemini-2.5-pro",
            timeout_s=60,
            workdir_root=tmp_path / "gemini",
            env=env,
        )
        return {Backend.CLAUDE_CLI: claude, Backend.GEMINI_CLI: gemini}

    options = (("ledger.end", "converge"), ("ledger.stance", "assigned"))
    rig = Rig(
        tmp_path / "ledger.sqlite3",
        roster=TRIO,
        format="ledger",
        options=options,
        max_rounds=3,
        real=clis,
    )
    rig.debaters[AG].enqueue(turn_text(AG, 1, "partial"), turn_text(AG, 2, "agree"))
    await rig.start()
    try:
        debate = await rig.h.propose(proposal())
        assert debate is not None
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        await rig.h.submit(debate.id, ProposalApproved(ALICE))
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 180)
        done = await rig.h.get(debate.id)
        assert done.phase is Phase.CONCLUDED and done.ending.outcome is Outcome.CONSENSUS, (
            done.ending.failure
        )
        turns = sorted(await rig.h._turns.last_turns(debate.id, 100), key=lambda t: t.number)
        assert sorted((t.round, t.seat) for t in turns) == sorted(
            (r, m.id) for r in (1, 2) for m in TRIO
        )
        by = {(t.round, t.seat): t for t in turns}
        # Claude answered through `--json-schema`: its record is the CLI's validated object
        # (the same fields and words, in the CLI's spacing), under what it wrote before it.
        assert [json_of(by[(r, CLAUDE)].text) for r in (1, 2)] == [json_of(s) for s in claude_said]
        assert [by[(r, GEMINI)].text for r in (1, 2)] == gemini_said
        # Gemini's round-2 prompt carries AG's and Claude's round-1 turns, verbatim.
        second = gemini_api.generate_requests[1]["text"]
        assert by[(1, AG)].text in second and by[(1, CLAUDE)].text in second
        # Claude's round-2 message carries AG's and Gemini's round-1 turns, verbatim.
        sent = [
            json.dumps(b["messages"][-1], ensure_ascii=False)
            for b in fake.messages()
            if b.get("messages")
        ]
        quoted = [json.dumps(by[(1, who)].text, ensure_ascii=False)[1:-1] for who in (AG, GEMINI)]
        assert any(all(q in m for q in quoted) for m in sent)
        pages = rig.wiki.pages[debate.id]
        assert "**A1** LRU first" in pages["conclusion"][1]
        assert "A1" in pages["front-page"][1] and "turns/02-gemini" in pages
    finally:
        await rig.stop()


def json_of(reply: str) -> object:
    """The JSON object of a reply (in a ```json fence, or the whole reply)."""
    inside = reply.split("```json", 1)[-1].rsplit("```", 1)[0] if "```json" in reply else reply
    return json.loads(inside)
