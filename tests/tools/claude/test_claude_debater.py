"""The debater's rules with stand-in processes: arguments, environment, kill ladder, sessions."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.doctor import Status, all_checks, check_claude
from bot.settings import Settings
from handlers.core.i18n import Strings, load_table
from handlers.core.model import CLAUDE, FailureKind
from handlers.ports import DebaterError, TurnRequest
from tests.fakes.fake_anthropic import FakeAnthropic, processes_with_env
from tests.tools.claude.conftest import add_debate
from tools.claude.debater import ClaudeCliError, ClaudeCodeDebater
from tools.pinned_clis import CLAUDE_PACKAGE, pinned
from tools.store.db import Database
from tools.store.sessions import AgentSessions, forget_expired_sessions, schedule_session_expiry

SESSIONS = "SELECT debate_id, seat FROM agent_sessions ORDER BY debate_id, seat"
INSERT_SESSION = (
    "INSERT INTO agent_sessions (debate_id, seat, session_id, workdir, updated_at) "
    "VALUES (?, ?, ?, '', '2025-01-01T00:00:00+00:00')"
)


def debater(db: Database, tmp_path: Path, **overrides: object) -> ClaudeCodeDebater:
    values: dict[str, object] = {
        "binary": "claude",
        "system_prompt": "SYSTEM",
        "model": None,
        "tools": "Read,Grep,Glob,WebSearch,WebFetch",
        "timeout_s": 30.0,
        "max_retries": 2,
        "max_concurrency": 2,
        "workdir_root": tmp_path / "data",
        "env": {"PATH": os.environ["PATH"]},
    }
    values.update(overrides)
    return ClaudeCodeDebater(AgentSessions(db, CLAUDE), **values)  # type: ignore[arg-type]  # test overrides


def stub(tmp_path: Path, body: str) -> str:
    """A stand-in for the CLI: a shell script with `body`."""
    path = tmp_path / "stub-claude"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def ask(prompt: str = "hello", fresh: bool = False) -> TurnRequest:
    return TurnRequest(debate_id=1, turn=1, round=1, prompt=prompt, fresh_session=fresh)


@pytest.mark.parametrize("tools", ["Bash", "Read,Write", "Read, Edit", "Glob,NotebookEdit"])
def test_tools_that_write_are_refused(db: Database, tmp_path: Path, tools: str) -> None:
    with pytest.raises(ValueError, match="read-only"):
        debater(db, tmp_path, tools=tools)


def test_the_command_is_read_only_and_resumes_by_id(db: Database, tmp_path: Path) -> None:
    d = debater(db, tmp_path, model="sonnet")
    first, later = d.command(None), d.command("sid-1")
    assert first[:4] == ["claude", "-p", "--output-format", "stream-json"]
    assert "--verbose" in first and "--include-partial-messages" in first
    assert first[first.index("--system-prompt") + 1] == "SYSTEM"
    assert first[first.index("--tools") + 1] == "Read,Grep,Glob,WebSearch,WebFetch"
    assert first[first.index("--permission-mode") + 1] == "default"
    # only the web tools are pre-approved: approving Read would let it leave the cwd
    assert first[first.index("--allowedTools") + 1] == "WebSearch,WebFetch"
    assert first[first.index("--model") + 1] == "sonnet"
    assert not any(a.startswith("--resume") for a in first)
    assert "--resume=sid-1" in later  # one word, as the SDK passes it (an id is never an option)
    for argv in (first, later):
        assert not any("dangerously" in a or "bypass" in a.lower() for a in argv)
        # the CLI's own read-only flags, beside our tool list
        assert argv[argv.index("--permission-prompts") + 1] == "none"
    assert not any(a in first for a in ("--json-schema", "--max-budget-usd", "--fallback-model"))


def test_the_command_asks_for_the_schema_the_cap_and_the_seat_s_fallbacks(
    db: Database, tmp_path: Path
) -> None:
    d = debater(db, tmp_path, fallback_models={"": "sonnet", "critic": "haiku,sonnet"})
    schema = '{"type":"object"}'
    argv = d.command(None, seat="critic", schema=schema, budget_usd=0.125)
    assert argv[argv.index("--json-schema") + 1] == schema
    assert float(argv[argv.index("--max-budget-usd") + 1]) == 0.125
    assert argv[argv.index("--fallback-model") + 1] == "haiku,sonnet"
    other = d.command(None, seat="claude")
    assert other[other.index("--fallback-model") + 1] == "sonnet"  # every seat's


def test_no_tools_means_none_and_nothing_pre_approved(db: Database, tmp_path: Path) -> None:
    argv = debater(db, tmp_path, tools="").command(None)
    assert argv[argv.index("--tools") + 1] == ""
    assert "--allowedTools" not in argv


async def test_env_is_bounded_and_secrets_stay_out_of_details(db: Database, tmp_path: Path) -> None:
    await add_debate(db, 1)
    secret = "sk-ant-very-secret-value"
    env = {"PATH": os.environ["PATH"], "ANTHROPIC_API_KEY": secret, "DISCORD_TOKEN": "discord-tok"}
    d = debater(
        db,
        tmp_path,
        binary=stub(tmp_path, 'env >&2; echo "key=$ANTHROPIC_API_KEY" >&2; exit 1'),
        env=env,
        keep_api_key=True,
    )
    with pytest.raises(ClaudeCliError) as caught:
        await d.speak(ask())
    error = caught.value
    assert error.kind is FailureKind.USAGE and error.exit_code == 1  # empty stdout
    assert "CLAUDE_CODE_MAX_RETRIES=2" in error.stderr
    assert "DISCORD_TOKEN" not in error.stderr  # the bot's own secrets are not passed on
    assert "key=***" in error.stderr
    assert secret not in error.stderr and secret not in error.detail and secret not in str(error)


async def test_the_prompt_goes_on_stdin_and_the_cwd_is_per_debate(
    db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    result = '{"type":"result","is_error":false,"result":"%s","session_id":"s-1","num_turns":1}'
    body = f"printf '{result}' \"$(cat)|$(pwd)\""
    output = await debater(db, tmp_path, binary=stub(tmp_path, body)).speak(ask("-p no option"))
    prompt, cwd = output.text.split("|")
    assert prompt == "-p no option"
    assert Path(cwd) == tmp_path / "data" / "claude" / "1"
    assert output.meta.session_id == "s-1"


async def test_the_latest_session_id_wins_even_when_it_changes(
    db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    # Each call answers with a new id (some CLI versions do) and echoes its arguments.
    body = (
        "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count\n"
        'printf \'{"type":"result","result":"%s","session_id":"s-%s"}\' "$*" "$n"'
    )
    d = debater(db, tmp_path, binary=stub(tmp_path, body))
    first = await d.speak(ask())
    second = await d.speak(ask())
    third = await d.speak(ask())
    assert "--resume" not in first.text
    assert second.text.endswith("--resume=s-1")
    assert third.text.endswith("--resume=s-2")
    fresh = await d.speak(ask(fresh=True))  # the engine asked for a new session
    assert "--resume" not in fresh.text
    row = await db.fetch_one("SELECT session_id FROM agent_sessions WHERE debate_id = 1")
    assert row is not None and row[0] == "s-4"


async def test_a_fixed_claude_workdir_is_used_for_every_debate(
    db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    fixed = tmp_path / "fixed"
    body = 'printf \'{"type":"result","result":"%s","session_id":"s"}\' "$(pwd)"'
    d = debater(db, tmp_path, binary=stub(tmp_path, body), workdir=fixed)
    assert (await d.speak(ask())).text == str(fixed)


async def test_a_cli_that_ignores_sigterm_is_killed_with_its_children(
    db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    marker = f"MARKER-{tmp_path.name}"
    env = {"PATH": os.environ["PATH"], "TEST_MARKER": marker}
    # The script and its child ignore SIGTERM: only the kill step of the ladder ends them.
    body = "trap '' TERM\nsleep 300 &\nwait"
    d = debater(db, tmp_path, binary=stub(tmp_path, body), env=env, timeout_s=0.5, grace_s=0.3)
    with pytest.raises(DebaterError) as caught:
        await d.speak(ask())
    assert caught.value.kind is FailureKind.TIMEOUT
    assert processes_with_env(marker) == []


async def test_a_missing_binary_is_a_usage_error(db: Database, tmp_path: Path) -> None:
    await add_debate(db, 1)
    d = debater(db, tmp_path, binary=str(tmp_path / "no-such-claude"))
    with pytest.raises(DebaterError) as caught:
        await d.speak(ask())
    assert caught.value.kind is FailureKind.USAGE
    assert "cannot run" in caught.value.detail


async def test_forget_drops_the_session_and_the_empty_workdir(db: Database, tmp_path: Path) -> None:
    await add_debate(db, 1)
    body = 'printf \'{"type":"result","result":"ok","session_id":"s-9"}\''
    d = debater(db, tmp_path, binary=stub(tmp_path, body))
    await d.speak(ask())
    assert await db.fetch_all(SESSIONS)
    await d.forget(1)
    assert await db.fetch_all(SESSIONS) == []
    assert not (tmp_path / "data" / "claude" / "1").exists()


async def expiry_fixture(db: Database, now: datetime) -> None:
    ended = {1: now - timedelta(days=20), 2: now - timedelta(days=5), 3: None}
    for debate_id, at in ended.items():
        await add_debate(db, debate_id, at)
        await db.execute(INSERT_SESSION, (debate_id, "claude", f"sid-{debate_id}"))
    await db.execute(INSERT_SESSION, (1, "ag", "ag-1"))
    # a naive time written elsewhere counts as UTC
    await add_debate(db, 4)
    old = (now - timedelta(days=30)).replace(tzinfo=None).isoformat()
    await db.execute("UPDATE debates SET ended_at = ? WHERE id = 4", (old,))
    await db.execute(INSERT_SESSION, (4, "claude", "sid-4"))


async def test_sessions_of_debates_ended_before_the_ttl_are_forgotten(db: Database) -> None:
    now = datetime(2025, 6, 1, tzinfo=UTC)
    await expiry_fixture(db, now)
    assert await forget_expired_sessions(db, 14, now) == 3
    rows = [(r[0], r[1]) for r in await db.fetch_all(SESSIONS)]
    assert rows == [(2, "claude"), (3, "claude")]  # ended recently, still running
    assert await forget_expired_sessions(db, 14, now) == 0


async def test_the_expiry_job_is_scheduled_and_runs(db: Database) -> None:
    now = datetime.now(UTC)
    await expiry_fixture(db, now)
    scheduler = AsyncIOScheduler(timezone=UTC)
    schedule_session_expiry(scheduler, db, ttl_days=14)
    job = scheduler.get_job("claude-session-expiry")
    assert job is not None
    assert job.trigger.interval == timedelta(hours=6)
    await job.func()
    rows = [(r[0], r[1]) for r in await db.fetch_all(SESSIONS)]
    assert rows == [(2, "claude"), (3, "claude")]


async def test_doctor_reports_a_missing_claude(tmp_path: Path) -> None:
    settings = Settings(CLAUDE_BIN=str(tmp_path / "no-claude"), _env_file=None)
    check = await check_claude(settings)
    assert check.status is Status.FAILING and "not found" in check.detail
    claude = pinned(CLAUDE_PACKAGE)["version"]  # the version the tests ran against
    assert f"install it: npm install -g @anthropic-ai/claude-code@{claude}" in check.detail
    assert check_claude in all_checks()


async def test_anthropic_api_key_is_kept_from_claude_unless_a_setting_says(
    db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    env = {"PATH": os.environ["PATH"], "ANTHROPIC_API_KEY": "sk-ant-bills-the-api"}
    script = 'echo "key=[$ANTHROPIC_API_KEY]" >&2; exit 1'
    for keep, shown in ((False, "key=[]"), (True, "key=[***]")):
        d = debater(db, tmp_path, binary=stub(tmp_path, script), env=env, keep_api_key=keep)
        with pytest.raises(ClaudeCliError) as caught:
            await d.speak(ask())
        assert shown in caught.value.stderr


@pytest.mark.cli
async def test_doctor_says_not_logged_in_when_only_an_api_key_would_log_it_in(
    claude_bin: str, fake: FakeAnthropic, config_dir: Path
) -> None:
    env = fake.cli_env(config_dir)  # logged in with ANTHROPIC_API_KEY only
    settings = Settings(CLAUDE_BIN=claude_bin, _env_file=None)
    check = await check_claude(settings, env)
    assert check.status is Status.FAILING
    assert "Claude Code" in check.detail and check.detail[0].isdigit()
    assert "not logged in" in check.detail and "claude auth login" in check.detail


@pytest.mark.cli
async def test_doctor_warns_when_the_kept_api_key_would_bill_the_api(
    claude_bin: str, fake: FakeAnthropic, config_dir: Path
) -> None:
    env = fake.cli_env(config_dir)
    settings = Settings(CLAUDE_BIN=claude_bin, CLAUDE_KEEP_API_KEY=True, _env_file=None)
    check = await check_claude(settings, env)
    assert check.status is Status.WARNING
    assert "bill the Anthropic API" in check.detail and "dummy-key" not in check.detail


@pytest.mark.parametrize("language", ["ko", "en"])
def test_every_failure_kind_has_a_hint(language: str) -> None:
    strings = Strings(language)
    for kind in FailureKind:
        assert strings(f"claude.hint.{kind.value}")
    assert strings("claude.author", model="sonnet") == "Claude Code (sonnet)"
    assert "Read" in strings("claude.denied_tools", count=1, tools="Read")


def test_both_languages_have_the_same_claude_keys() -> None:
    ko_keys, en_keys = load_table("ko"), load_table("en")
    ko = {k for k in ko_keys if k.startswith("claude.")}
    en = {k for k in en_keys if k.startswith("claude.")}
    assert ko == en and ko
