"""The CLI backend with the real `gemini` CLI (pinned 0.61.0) against the loopback fake Gemini."""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from handlers.core.formats.ledger.schemas import LedgerTaskReply
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Action, ModeratorSource, ModeratorView
from handlers.ports import TaskRequest
from handlers.rules_moderator import RulesModerator
from tests.clis import GEMINI_BIN, installed_or_skip
from tests.fakes.fake_gemini import PER_DAY, FakeGemini
from tests.tools.gemini.builders import reply_text, turn, view_after
from tests.tools.gemini.conftest import MODEL, Day, Sleeps
from tools.gemini.cli_moderator import KILL_GRACE_S, GeminiCliBackend
from tools.gemini.context import judge_prompt
from tools.gemini.core import GeminiModerator
from tools.store.db import Database
from tools.store.quota import ModeratorQuota

pytestmark = pytest.mark.cli


@pytest.fixture
def gemini_bin() -> Path:
    return installed_or_skip(GEMINI_BIN, "gemini")


@pytest.fixture
def cli_env(tmp_path: Path, fake: FakeGemini) -> dict[str, str]:
    """A throwaway HOME that signs in with an API key, pointed at the fake."""
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (home / ".gemini" / "settings.json").write_text(json.dumps(auth))
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GEMINI_API_KEY": "test-key",
        "GOOGLE_GEMINI_BASE_URL": fake.url,
        "NO_COLOR": "1",
        "TMPDIR": str(tmp_path),  # the CLI writes an error report there on each failure
    }


MakeCli = Callable[..., GeminiModerator]


@pytest.fixture
async def make_cli(
    gemini_bin: Path,
    cli_env: dict[str, str],
    tmp_path: Path,
    db: Database,
    sleeps: Sleeps,
    day: Day,
) -> AsyncIterator[MakeCli]:
    def build(timeout_s: float = 60.0) -> GeminiModerator:
        return GeminiModerator(
            GeminiCliBackend(str(gemini_bin), MODEL, tmp_path / "gemini-cli", timeout_s, cli_env),
            ModeratorQuota(db, 100, day),
            language="ko",
            sleep=sleeps,
            rules=RulesModerator(Strings("ko")),
        )

    yield build


def _view() -> ModeratorView:
    question = {"to": "user", "text": "운영팀이 Redis를 관리할 수 있나요?"}
    return view_after(
        turn(
            1,
            AG,
            reply_text("Redis가 맞습니다. 멀티 인스턴스에서 일관성이 필요합니다.", "disagree"),
        ),
        turn(2, CLAUDE, reply_text("LRU로 충분합니다.", "partial", question)),
    )


async def test_the_cli_judges_with_the_schema_in_the_prompt(
    fake: FakeGemini, make_cli: MakeCli, db: Database
) -> None:
    view = _view()
    decision = await make_cli().judge(view)

    assert decision.source is ModeratorSource.GEMINI
    assert decision.action is Action.CONTINUE  # the fake's rule: no two `agree` stances yet
    [request] = fake.generate_requests
    assert request["path"] == f"/v1beta/models/{MODEL}:streamGenerateContent"
    body = request["json"]
    assert body["systemInstruction"]["parts"][0]["text"] == judge_prompt(view, "ko").system
    assert all(not tool.get("functionDeclarations") for tool in body.get("tools", []))
    assert '"next_speaker"' in request["text"] and "JSON schema" in request["text"]
    assert (
        "LRU로 충분합니다" in request["text"]
    )  # the newest turn; its summary keeps the one before
    assert '"description"' not in request["text"]  # the schema's types: the prompt explains them
    row = await db.fetch_one("SELECT purpose, outcome FROM moderator_calls")
    assert row is not None and tuple(row) == ("judge", "ok")


async def test_the_cli_repairs_an_invalid_answer(fake: FakeGemini, make_cli: MakeCli) -> None:
    fake.push({"kind": "text", "text": '{"action": "onward"}'})
    decision = await make_cli().judge(_view())
    assert decision.source is ModeratorSource.GEMINI
    _first, repair = fake.generate_requests
    assert "could not be used" in repair["text"] and "action" in repair["text"]


@pytest.mark.parametrize(
    "step",
    [{"kind": "error", "status": 429, "quota_id": PER_DAY}, {"kind": "error", "status": 500}],
    ids=["per_day_quota", "server_error"],
)
async def test_cli_failures_go_to_the_rules_without_retrying_inside_the_cli(
    fake: FakeGemini, make_cli: MakeCli, db: Database, step: dict
) -> None:
    fake.push(step)
    moderator = make_cli()
    decision = await moderator.judge(_view())
    assert decision.source is ModeratorSource.RULES
    assert decision.action is Action.ASK_USER  # the rules: the latest turn asked the people
    assert len(fake.generate_requests) == 1  # the CLI's own retries are off
    quota = await db.fetch_all("SELECT reason FROM moderator_quota")
    assert [row[0] for row in quota] == (["quota"] if step["status"] == 429 else [])


async def test_a_silent_cli_is_killed_at_the_timeout(
    fake: FakeGemini, make_cli: MakeCli, tmp_path: Path
) -> None:
    fake.push({"kind": "hang"})
    started = time.monotonic()
    decision = await make_cli(timeout_s=8.0).judge(_view())
    elapsed = time.monotonic() - started
    assert decision.source is ModeratorSource.RULES
    # The whole group is killed: without that, the CLI's relaunched child keeps the
    # parent waiting for about a minute. (A bound on correctness, not a benchmark.)
    assert elapsed < 8.0 + 2 * KILL_GRACE_S + 10
    assert len(fake.generate_requests) == 1  # it got as far as asking, then hung
    workspace = str(tmp_path / "gemini-cli" / "workspace")
    assert _processes_in(workspace) == []


def _processes_in(directory: str) -> list[int]:
    """Pids whose working directory is `directory` (the CLI runs there)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str((entry / "cwd").readlink()) == directory:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


async def test_a_format_task_through_the_cli(make_cli: MakeCli, fake: FakeGemini) -> None:
    fake.push({"kind": "text", "text": "[RESULT] PASS\n[CAVEATS] none"})
    request = TaskRequest(debate_id=1, task="validator", prompt="VALIDATE THIS", json=False)
    assert await make_cli().perform(request) == "[RESULT] PASS\n[CAVEATS] none"
    sent = fake.generate_requests[0]["text"]
    assert "VALIDATE THIS" in sent and "JSON schema" not in sent


async def test_a_json_task_through_the_cli_carries_its_schema(
    make_cli: MakeCli, fake: FakeGemini
) -> None:
    ledger = LedgerTaskReply  # the task's model travels on the request
    request = TaskRequest(1, "ledger", "WRITE THE LEDGER", json=True, schema=ledger)
    output = json.loads(await make_cli().perform(request))
    assert set(output) == {"agreed", "amendments", "open"}  # the fake answered the schema
    sent = fake.generate_requests[0]["text"]
    assert "WRITE THE LEDGER" in sent and "JSON schema" in sent and '"amendments"' in sent
