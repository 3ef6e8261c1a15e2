"""`debate-room demo --format adversarial`: a recorded FULL adversarial debate through the
real engine, SQLite, the wiki outbox with the local wiki, and the console room."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from bot.demo.replay import recording_for
from bot.demo.runner import DB_NAME, replay
from handlers.core.formats.adversarial.contract import sections
from handlers.core.i18n import Strings
from handlers.core.model import Phase
from tests.bot.console.conftest import plain_console
from tools.store.db import Database
from tools.store.debates import SqliteStore

RECORDING = recording_for("adversarial")
T = Strings(RECORDING.language)


def test_the_recording_is_a_full_debate_in_the_seed_s_format() -> None:
    assert RECORDING.format_name == "adversarial" and RECORDING.language == "ko"
    assert [t.seat for t in RECORDING.turns] == ["ag", "claude", "reconciler"]
    assert set(RECORDING.tasks) == {"intake", "probe-cost", "probe-alternatives", "validator"}
    assert sections(RECORDING.turns[2].reply)["VERDICT"] == "MODIFY"


async def test_the_replay_runs_every_role_and_writes_the_result_page(tmp_path: Path) -> None:
    screen = io.StringIO()
    result = await replay(plain_console(screen), tmp_path / "demo", 0.0, RECORDING)
    assert result.debate.phase is Phase.CONCLUDED and result.debate.setup.format == "adversarial"
    db = await Database.open(str(tmp_path / "demo" / DB_NAME))
    try:
        turns = await SqliteStore(db).last_turns(result.debate.id, 1000)
    finally:
        await db.close()
    # the engine's own draw gave the recorded roles; every answer is stored as recorded
    assert [(t.seat, t.text) for t in turns] == [(e.seat, e.reply) for e in RECORDING.turns]
    out = screen.getvalue()
    assert "단계 자동 판정: FULL (근거: " in out and "AUTO-DETECTED" not in out
    assert f"- {T('adversarial.result.proposition')}: " in out  # the intake audit, in Korean
    assert "- Proposition:" not in out and "- Evidence inventory:" not in out
    for line in ("[KEY-TENSION] 처리량", "[RESULT] PASS-WITH-CAVEATS", "[VERDICT] MODIFY"):
        assert line in out  # probes, Validator and roles in full in the room
    assert "단계: FULL · 사전 감사: debate-ready · 확신도:" in out  # the summary, in Korean
    page = result.pages["debate-result"].read_text(encoding="utf-8")
    assert "## 토론 결과" in page and "### 조정자의 판정: MODIFY" in page
    assert "### 검증\nPASS-WITH-CAVEATS" in page
    rejected = page.split("### 기각된 논거\n", 1)[1].split("\n\n", 1)[0]
    assert rejected.count("\n") == 0 and "도전자" in rejected  # the uncited one, listed once
    assert all(entry.reply in page for entry in RECORDING.turns)
    assert "- 최상위 등급: 조정자 (claude-opus-4-1)" in page


def test_the_demo_command_takes_the_format(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--format", "adversarial", "--pace", "0"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert T("adversarial.page_debate-result") in done.stdout
    assert (tmp_path / "data" / "demo" / DB_NAME).exists()
