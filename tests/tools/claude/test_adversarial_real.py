"""A FULL adversarial debate on the real parts: Claude and the Reconciler on the real `claude`
CLI (against the fake Anthropic API, each in its own session, Claude's role on its tier's
`--model`, the Reconciler on its own model), the intake, probes and Validator on the real
google-genai SDK against the fake Gemini, AG a double; in Korean and in Portuguese. The
Reconciler's verdict ends it: no Conclusion is asked of the moderator."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from google import genai
from google.genai import types

from handlers.core.events import ProposalApproved
from handlers.core.formats.adversarial.seats import (
    RECONCILER_BACKEND,
    RECONCILER_MODEL,
    TIER_MODELS,
)
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Backend, Outcome, Phase
from handlers.ports import Debater
from handlers.rules_moderator import RulesModerator
from tests.fakes.fake_anthropic import FakeAnthropic
from tests.fakes.fake_gemini import FakeGemini
from tests.handlers.adversarial_script import (
    RoleDebater,
    either_role,
    intake,
    probe,
    reconciler,
    validator,
)
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.tools.claude.conftest import READ_ONLY, SYSTEM_PROMPT
from tools.claude.debater import ClaudeCodeDebater
from tools.gemini.api import GeminiApiBackend
from tools.gemini.core import GeminiModerator
from tools.store.db import Database
from tools.store.quota import ModeratorQuota
from tools.store.sessions import AgentSessions

RECONCILER_ON = "claude-reconciler-test"
MID_TIER = "claude-mid-tier-test"
SESSIONS = "SELECT seat, session_id FROM agent_sessions WHERE debate_id = ? ORDER BY seat"
# Claude answers as whichever role it drew: one text that carries both roles' prefixes.
EITHER_ROLE = "\n".join(
    [
        "[POSITION] FOR",
        "[STRUCTURAL] supports=E1; counter=E2; gaps=none; assumptions=none",
        "[THESIS] 공유 캐시가 무효화 문제를 푼다.",
        "[EVIDENCE]\n1. E1: 복제본 3개\n2. E2: 지연 4초",
        "[COUNTER] E2",
        "[RISKS] 운영 부담",
        "[ALTERNATIVE] TTL 5초의 LRU",
        "[CONCESSIONS] E1",
        "[CONFIDENCE] INFERRED",
    ]
)


@pytest.fixture(autouse=True)
def _no_vertex(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    monkeypatch.delenv("GOOGLE_GEMINI_BASE_URL", raising=False)


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.mark.cli
@pytest.mark.parametrize("lang", ["ko", "pt-BR"])
async def test_a_full_debate_on_the_real_clis_and_sdk(
    fake: FakeAnthropic, config_dir: Path, tmp_path: Path, claude_bin: str, lang: str
) -> None:
    either = EITHER_ROLE if lang == "ko" else either_role(lang)
    fake.script_replies(either, reconciler(lang))
    gemini = await FakeGemini(auto=True).start()
    gemini.push(
        {"kind": "json", "obj": json.loads(intake(4, high_stakes=True))},
        {"kind": "text", "text": probe("cost-first", True)},
        {"kind": "text", "text": probe("alternatives-first", True)},
        {"kind": "text", "text": validator()},
    )
    quota_db = await Database.open(str(tmp_path / "moderator.sqlite3"))

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

    seated = (
        (RECONCILER_BACKEND, "claude-cli"),
        (RECONCILER_MODEL, RECONCILER_ON),
        (TIER_MODELS["mid-tier"], MID_TIER),
    )
    rig = Rig(
        tmp_path / "real.sqlite3",
        format="adversarial",
        real=claude_cli,
        options=seated,
        language=lang,
    )
    rig.debaters[AG] = RoleDebater(AG, rig, lang)
    client = genai.Client(
        api_key="test-key",
        http_options=types.HttpOptions(base_url=gemini.url, api_version="v1beta"),
    )
    moderator = GeminiModerator(
        GeminiApiBackend(client, "gemini-flash-latest", 10.0),
        ModeratorQuota(quota_db, 100),
        language=lang,
        sleep=_no_sleep,
        rules=RulesModerator(Strings(lang)),
    )
    rig.moderator = moderator  # type: ignore[assignment]  # the real moderator in the double's seat
    await rig.start()
    try:
        debate = await rig.h.propose(proposal())
        assert debate is not None
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        await rig.h.submit(debate.id, ProposalApproved(ALICE))
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 60)
        ended = await rig.h.get(debate.id)
        assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.VERDICT
        turns = await rig.h._turns.last_turns(debate.id, 100)
        assert [t.seat for t in turns].count("reconciler") == 1 and len(turns) == 3
        assert next(t for t in turns if t.seat == CLAUDE).text == either
        # Claude's role runs on its tier's model; the Reconciler on its own, in its own session.
        models = [b["model"] for b in fake.messages() if b.get("messages")]
        assert MID_TIER in models and models[-1] == RECONCILER_ON
        assert rig.db is not None
        rows = [(r[0], r[1]) for r in await rig.db.fetch_all(SESSIONS, (debate.id,))]
        assert [seat for seat, _ in rows] == [CLAUDE, "reconciler"] and rows[0][1] != rows[1][1]
        # Intake (JSON), two probes, the Validator (text); the verdict is the Conclusion.
        sent = gemini.generate_requests
        assert len(sent) == 4 and rig.room.conclusions == []
        configs = [r["json"].get("generationConfig", {}) for r in sent]
        assert configs[0]["responseMimeType"] == "application/json"
        assert all(c["responseMimeType"] == "text/plain" for c in configs[1:4])
        written = next(c for k, _, c in rig.wiki.writes if k.endswith(":page:debate-result"))
        t = Strings(lang)
        page = fill_keys(written, t)  # as the wiki writes it in the debate's language
        validation, confidence = (
            t("adversarial.result.validation"),
            t("adversarial.result.confidence"),
        )
        assert f"### {validation}\nPASS-WITH-CAVEATS" in page
        assert f"### {confidence}: CONFIRMED" in page
        # each role on its tier's line with the model it ran on (the CLI's report)
        top, mid = t("adversarial.result.tier_top"), t("adversarial.result.tier_mid")
        assert f"- {top}: {t('adversarial.result.role_reconciler')} ({RECONCILER_ON})" in page
        assert f"- {mid}: " in page and f"(Claude, {MID_TIER})" in page
        [closing] = rig.room.summaries
        verdict = f"⚖️ {t('adversarial.result.verdict')}: **MODIFY**"
        assert fill_keys(closing, t).startswith(verdict)
    finally:
        await rig.stop()
        await moderator.aclose()
        await quota_db.close()
        await gemini.stop()
