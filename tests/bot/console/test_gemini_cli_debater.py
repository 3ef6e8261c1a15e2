"""The AG seat on the real `gemini` CLI (0.61.0) against the loopback fake Gemini API."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import AG, FailureKind
from handlers.ports import TurnRequest
from handlers.prompting import participant_system_prompt
from handlers.rules_moderator import RulesModerator
from tests.bot.console.conftest import Screen, contract_reply, plain_console, seed_for
from tests.clis import GEMINI_BIN, installed_or_skip
from tests.doubles import FakeClock, QueueLines
from tests.fakes.fake_gemini import FakeGemini
from tools.cli_process import CliRun
from tools.gemini.cli_debater import (
    READ_ONLY_TOOLS,
    GeminiCliDebater,
    GeminiCliError,
    classify_failure,
    parse_output,
)
from tools.store.db import Database
from tools.store.sessions import AgentSessions

MODEL = "gemini-2.5-pro"
SYSTEM = "SYSTEM-MARKER: 당신은 두 토론자 중 하나입니다. 코드는 쓰지 않습니다."
INSERT_DEBATE = """
INSERT INTO debates (id, channel_id, topic, phase, state, created_at, updated_at)
VALUES (?, 1, '캐시', 'speaking', '{}', ?, ?)
"""
SESSION = "SELECT session_id, workdir FROM agent_sessions WHERE debate_id = ? AND seat = 'ag'"


# ---- the output parser, on what 0.61.0 printed ------------------------------------------

SUCCESS = json.dumps(
    {
        "session_id": "5afb8949-92a1-468a-89fd-ba09011ec221",
        "response": "첫 답변",
        "stats": {
            "models": {
                "gemini-2.5-pro": {
                    "roles": {"main": {}},
                    "tokens": {"prompt": 7689, "candidates": 12},
                }
            }
        },
    },
    indent=2,
)


def error_tail(code: int, message: str) -> str:
    body = {"session_id": "x", "error": {"type": "Error", "message": message, "code": code}}
    trace = "    at async main (file:///gemini.js:1:1) {\n  status: 1\n}\n"
    return trace + json.dumps(body, indent=2)


def test_a_success_gives_the_reply_the_session_and_the_tokens() -> None:
    reply = parse_output(CliRun(0, "Loaded cached credentials.\n" + SUCCESS, "", 1.5), "default")
    meta = reply.meta
    assert (reply.text, meta.session_id) == ("첫 답변", "5afb8949-92a1-468a-89fd-ba09011ec221")
    assert (meta.model, meta.input_tokens, meta.output_tokens) == ("gemini-2.5-pro", 7689, 12)
    assert meta.latency_s == 1.5


@pytest.mark.parametrize(
    ("code", "stderr", "kind", "retry_after"),
    [
        (
            173,
            error_tail(429, "You exceeded your current quota.\nSuggested retry after 7s."),
            FailureKind.RATE_LIMITED,
            7.0,
        ),
        (
            173,
            error_tail(429, "You have exhausted your daily quota on this model."),
            FailureKind.RATE_LIMITED,
            None,
        ),
        (
            147,
            error_tail(403, '{"error":{"code":403,"status":"PERMISSION_DENIED"}}'),
            FailureKind.AUTH,
            None,
        ),
        (
            244,
            error_tail(500, '{"error":{"code":500,"status":"INTERNAL"}}'),
            FailureKind.SERVER,
            None,
        ),
        (
            1,
            error_tail(1, "exception TypeError: fetch failed sending request"),
            FailureKind.UNREACHABLE,
            None,
        ),
        (
            42,
            'Error resuming session: Invalid session identifier "0000".\n',
            FailureKind.SESSION_MISSING,
            None,
        ),
        (41, "Please set an Auth method in your settings.json\n", FailureKind.AUTH, None),
        (55, "Gemini CLI is not running in a trusted directory.\n", FailureKind.USAGE, None),
    ],
)
def test_failures_map_to_the_engines_kinds(
    code: int, stderr: str, kind: FailureKind, retry_after: float | None
) -> None:
    error = classify_failure(code, {}, stderr)
    assert (error.kind, error.retry_after, error.exit_code) == (kind, retry_after, code)
    assert error.detail


def test_an_empty_answer_is_a_server_failure_not_an_empty_turn() -> None:
    with pytest.raises(GeminiCliError) as caught:
        parse_output(CliRun(0, json.dumps({"session_id": "s", "response": ""}), "", 0.1), "m")
    assert caught.value.kind is FailureKind.SERVER


# ---- the real CLI ---------------------------------------------------------------------------


@pytest.fixture
def gemini_bin() -> Path:
    return installed_or_skip(GEMINI_BIN, "gemini")


@pytest.fixture
async def fake() -> AsyncIterator[FakeGemini]:
    server = await FakeGemini().start()
    yield server
    await server.stop()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(str(tmp_path / "db.sqlite3"))
    now = datetime.now(UTC).isoformat()
    await database.execute(INSERT_DEBATE, (1, now, now))
    yield database
    await database.close()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A throwaway HOME that signs in with an API key."""
    path = tmp_path / "home"
    (path / ".gemini").mkdir(parents=True)
    auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (path / ".gemini" / "settings.json").write_text(json.dumps(auth), encoding="utf-8")
    return path


def make(
    gemini_bin: Path,
    db: Database,
    fake: FakeGemini,
    home: Path,
    tmp_path: Path,
    timeout_s: float = 60.0,
) -> GeminiCliDebater:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": fake.url,
        "DISCORD_TOKEN": "must-not-reach-the-cli",
    }
    return GeminiCliDebater(
        AgentSessions(db, AG),
        binary=str(gemini_bin),
        system_prompt=SYSTEM,
        model=MODEL,
        timeout_s=timeout_s,
        workdir_root=Path(os.path.relpath(tmp_path / "ag")),  # relative, as DATA_DIR often is
        env=env,
    )


@pytest.mark.cli
async def test_a_first_turn_then_a_resumed_one(
    gemini_bin: Path, db: Database, fake: FakeGemini, home: Path, tmp_path: Path
) -> None:
    fake.push(
        {"kind": "text", "text": "첫 답변: Redis가 맞습니다."},
        {"kind": "text", "text": "둘째 답변: 동의합니다."},
    )
    debater = make(gemini_bin, db, fake, home, tmp_path)
    assert debater.participant == AG

    first = await debater.speak(TurnRequest(1, 1, 1, "--첫 요청: 캐시 계층을 골라 주세요"))
    assert first.text == "첫 답변: Redis가 맞습니다."
    assert first.meta.session_id and first.meta.model == MODEL and first.meta.input_tokens > 0
    row = await db.fetch_one(SESSION, (1,))
    assert row is not None and row[0] == first.meta.session_id
    assert row[1] == str((tmp_path / "ag" / "1").resolve())
    [request] = fake.generate_requests
    assert request["path"] == f"/v1beta/models/{MODEL}:streamGenerateContent"
    body = request["json"]
    assert body["systemInstruction"]["parts"][0]["text"] == SYSTEM
    assert request["text"].rstrip().endswith("--첫 요청: 캐시 계층을 골라 주세요")  # via stdin
    offered = {f["name"] for tool in body.get("tools", []) for f in tool["functionDeclarations"]}
    assert offered and offered <= set(READ_ONLY_TOOLS)  # nothing that writes or runs

    second = await debater.speak(TurnRequest(1, 2, 1, "둘째 요청"))
    assert second.text == "둘째 답변: 동의합니다."
    assert second.meta.session_id == first.meta.session_id
    history = fake.generate_requests[1]["text"]
    assert "--첫 요청" in history and "첫 답변: Redis가 맞습니다." in history  # resumed
    assert "must-not-reach-the-cli" not in json.dumps(fake.requests)

    await debater.forget(1)
    assert await db.fetch_one(SESSION, (1,)) is None


@pytest.mark.cli
async def test_a_rate_limit_and_a_lost_session_are_told_apart(
    gemini_bin: Path, db: Database, fake: FakeGemini, home: Path, tmp_path: Path
) -> None:
    fake.push({"kind": "error", "status": 429, "retry_delay": "7s"})
    debater = make(gemini_bin, db, fake, home, tmp_path)
    with pytest.raises(GeminiCliError) as limited:
        await debater.speak(TurnRequest(1, 1, 1, "요청"))
    assert limited.value.kind is FailureKind.RATE_LIMITED and limited.value.retry_after == 7.0
    assert await db.fetch_one(SESSION, (1,)) is None  # a failed first call leaves nothing

    now = datetime.now(UTC).isoformat()
    await db.execute(
        "INSERT INTO agent_sessions (debate_id, seat, session_id, workdir, updated_at) "
        "VALUES (1, 'ag', '00000000-0000-0000-0000-000000000000', '', ?)",
        (now,),
    )
    asked = len(fake.generate_requests)
    with pytest.raises(GeminiCliError) as lost:
        await debater.speak(TurnRequest(1, 2, 1, "요청"))
    assert lost.value.kind is FailureKind.SESSION_MISSING
    assert len(fake.generate_requests) == asked


@pytest.mark.cli
async def test_a_timeout_ends_the_cli_and_its_children(
    gemini_bin: Path, db: Database, fake: FakeGemini, home: Path, tmp_path: Path
) -> None:
    fake.push({"kind": "hang"})
    debater = make(gemini_bin, db, fake, home, tmp_path, timeout_s=4.0)
    with pytest.raises(GeminiCliError) as caught:
        await debater.speak(TurnRequest(1, 1, 1, "요청"))
    assert caught.value.kind is FailureKind.TIMEOUT
    assert not processes_with(str(home))  # node and anything it started are gone


def processes_with(marker: str) -> list[int]:
    """Live processes whose environment holds `marker` (this test's throwaway HOME)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1][:1]
        except OSError:
            continue
        if marker.encode() in environ and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.cli
async def test_the_console_seats_ag_on_the_gemini_cli(
    gemini_bin: Path,
    fake: FakeGemini,
    home: Path,
    settings: Settings,
    screen: Screen,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {
        "HOME": str(home),
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": fake.url,
    }.items():
        monkeypatch.setenv(name, value)
    opinion = "AG의 의견: in-process LRU로 시작하고 인스턴스가 늘면 Redis로 옮깁니다."
    block = json.dumps({"opinion": opinion, "stance": "agree"}, ensure_ascii=False)
    fake.push({"kind": "text", "text": f"```json\n{block}\n```"})
    settings = settings.model_copy(update={"GEMINI_CLI_BIN": str(gemini_bin)})
    lines = QueueLines()
    keyboard = Keyboard(lines)
    session = asyncio.create_task(
        console_session(
            settings,
            ConsoleOptions(ag="gemini-cli", claude="human", name="alice", ag_model=MODEL),
            plain_console(screen),
            keyboard,
            FakeClock(),
            moderator=RulesModerator(Strings("ko")),
            rng=random.Random(seed_for(AG)),
        )
    )
    lines.push("/debate 캐시 계층 선택", "y")
    await asyncio.wait_for(keyboard.composing.wait(), 60)  # Claude's turn: AG has answered
    lines.push(*contract_reply("동의합니다.", stance="agree"), ".")
    await screen.shows("종료 · 합의", timeout=20)
    lines.close()
    assert await asyncio.wait_for(session, 20) == 0

    assert opinion in screen.getvalue()
    [request] = fake.generate_requests
    assert "캐시 계층 선택" in request["text"]  # the opening prompt reached the CLI
    system = request["json"]["systemInstruction"]["parts"][0]["text"]
    assert system == participant_system_prompt("ko").strip()  # the contract, not a coder
    db = await Database.open(str(settings.DATA_DIR / "console.sqlite3"))
    try:
        row = await db.fetch_one(SESSION, (1,))
    finally:
        await db.close()
    assert row is not None and row[1].endswith("console/gemini-cli-ag/1")


@pytest.mark.cli
async def test_a_new_session_runs_under_the_id_stored_before_the_call(
    gemini_bin: Path,
    db: Database,
    fake: FakeGemini,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--session-id`: the id is ours and stored while the CLI answers, so a process that dies
    mid-call resumes that very session; the CLI answers under it. A call that ends without an
    answer leaves no id behind."""
    ids = iter(("6f1c2a9e-0d4b-4f7e-9a53-2b8c1d7e4f10", "0b7d3e21-5c4a-4e9b-8f62-7a1d9c3e5b04"))
    ours = next(ids)
    debater = make(gemini_bin, db, fake, home, tmp_path)
    monkeypatch.setattr(debater, "_new_session_id", lambda: ours)
    fake.push({"kind": "hang"})
    turn = asyncio.create_task(debater.speak(TurnRequest(1, 1, 1, "첫 요청")))
    try:
        await fake.wait_for(1, timeout=60)
        row = await db.fetch_one(SESSION, (1,))
        assert row is not None and row[0] == ours  # stored while the CLI answers
    finally:
        turn.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await turn
    assert await db.fetch_one(SESSION, (1,)) is None  # stopped mid-call: nothing to resume

    ours = next(ids)  # the CLI keeps the stopped call's session: a new one has a new id
    fake.push({"kind": "text", "text": "첫 답변"})
    first = await debater.speak(TurnRequest(1, 1, 1, "첫 요청"))
    assert first.meta.session_id == ours  # the CLI answered under our id
    row = await db.fetch_one(SESSION, (1,))
    assert row is not None and row[0] == ours
