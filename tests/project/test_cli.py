"""The `debate-room` command as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.fakes.discord_loopback import SITECUSTOMIZE_DIR

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "GEMINI_", "WIKIJS_", "CLAUDE_", "DEBATE_"))
    }
    clean |= {"DATABASE_PATH": str(tmp_path / "db.sqlite3"), **env}
    # A newcomer's .env (empty: the settings under test come from `env`); without one, a
    # refusal says first that none was found (tests/bot/test_settings_first_day.py).
    (tmp_path / ".env").touch(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )


def test_without_a_token_it_names_it_first_with_the_rest_it_needs_and_exits_2(
    tmp_path: Path,
) -> None:
    result = run([], tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("debate-room: DISCORD_TOKEN is not set")
    assert "debate-room demo" in lines[0]
    assert [line.split()[1] for line in lines] == ["DISCORD_TOKEN", "GEMINI_API_KEY", "AG_USER_IDS"]
    assert "Traceback" not in result.stderr


def test_run_without_an_ag_relay_says_how_to_debate_without_ag(tmp_path: Path) -> None:
    result = run([], tmp_path, DISCORD_TOKEN="x", GEMINI_API_KEY="k")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("debate-room: AG_USER_IDS is not set")
    assert "PARTICIPANTS=claude:claude-cli,gemini:gemini-cli" in line


def test_doctor_exits_2_naming_what_run_would_refuse(tmp_path: Path) -> None:
    result = run(["doctor"], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["settings", "failing"]
    assert "DISCORD_TOKEN, GEMINI_API_KEY, AG_USER_IDS" in lines[0]
    assert any("PARTICIPANTS=claude:claude-cli,gemini:gemini-cli" in line for line in lines)
    ready = run(["doctor"], tmp_path, PARTICIPANTS="claude:claude-cli,critic:claude-cli")
    assert "AG_USER_IDS" not in ready.stdout.splitlines()[0]


def test_an_invalid_setting_is_named_without_a_traceback(tmp_path: Path) -> None:
    result = run(["doctor"], tmp_path, MAX_ROUNDS="many")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "MAX_ROUNDS" in lines[0]


def test_the_moderator_key_is_required_for_the_api_backend(tmp_path: Path) -> None:
    result = run([], tmp_path, DISCORD_TOKEN="x")
    assert result.returncode == 2 and "GEMINI_API_KEY" in result.stderr
    assert "Traceback" not in result.stderr


def test_settings_come_from_a_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("LANGUAGE=fr\n", encoding="utf-8")
    result = run(["doctor"], tmp_path)
    assert result.returncode == 2 and "LANGUAGE" in result.stderr


def test_help_lists_the_commands(tmp_path: Path) -> None:
    result = run(["--help"], tmp_path)
    assert result.returncode == 0
    for command in ("run", "doctor"):
        assert command in result.stdout


def test_doctor_reports_the_database(tmp_path: Path) -> None:
    result = run(["doctor"], tmp_path)
    line = next(x for x in result.stdout.splitlines() if x.startswith("database"))
    assert line.split()[1] == "ok" and "not created yet" in line
    assert not (tmp_path / "db.sqlite3").exists()  # `run` makes it, not doctor


def test_doctor_fails_on_a_database_it_cannot_open(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("x")
    result = run(["doctor"], tmp_path, DATABASE_PATH=str(tmp_path / "blocker" / "db.sqlite3"))
    assert result.returncode == 2  # no DISCORD_TOKEN here either: that exit status comes first
    line = next(x for x in result.stdout.splitlines() if x.startswith("database"))
    assert "failing" in line and "blocker is not a folder" in line


def test_a_write_tool_for_claude_is_refused_in_one_line(tmp_path: Path) -> None:
    result = run(["doctor"], tmp_path, CLAUDE_TOOLS="Read,Bash,Write")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "CLAUDE_TOOLS" in lines[0] and "Bash, Write" in lines[0]


def test_several_broken_settings_are_listed_in_one_run_with_their_fix(tmp_path: Path) -> None:
    result = run(
        ["doctor"],
        tmp_path,
        MAX_ROUNDS="many",
        LANGUAGE="fr",
        DEBATE_CHANNEL_IDS="12,abc",
        AG_TIMEOUT_SECONDS="-1",
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    named = {line.split(":")[1].strip() for line in lines}
    assert named == {"MAX_ROUNDS", "LANGUAGE", "DEBATE_CHANNEL_IDS", "AG_TIMEOUT_SECONDS"}
    by_name = {line.split(":")[1].strip(): line for line in lines}
    assert "whole number" in by_name["MAX_ROUNDS"] and "default 6" in by_name["MAX_ROUNDS"]
    assert "one of ko, en" in by_name["LANGUAGE"]
    assert "'abc'" not in by_name["DEBATE_CHANNEL_IDS"] and "abc" in by_name["DEBATE_CHANNEL_IDS"]
    assert "> 0" in by_name["AG_TIMEOUT_SECONDS"]


def test_the_example_env_file_copied_as_is_never_shows_a_traceback(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text(encoding="utf-8"))
    doctor = run(["doctor"], tmp_path)
    assert "Traceback" not in doctor.stderr + doctor.stdout
    assert "GEMINI_API_KEY is not set" in doctor.stdout  # blank is unset, not an empty key
    assert "DISCORD_TOKEN is not set" in doctor.stdout
    bot = run([], tmp_path)
    assert bot.returncode == 2 and "Traceback" not in bot.stderr
    assert bot.stderr.startswith("debate-room: DISCORD_TOKEN is not set")
    console = run(["console"], tmp_path)  # stdin is empty: it starts, or names what is missing
    assert console.returncode in (0, 2) and "Traceback" not in console.stdout + console.stderr
    if console.returncode == 2:
        assert console.stderr.count("\n") == 1 and "CLAUDE_BIN" in console.stderr


def test_a_secret_is_never_repeated_back(tmp_path: Path) -> None:
    result = run(["doctor"], tmp_path, MAX_ROUNDS="0", DISCORD_TOKEN="sekrit-token")
    assert result.returncode == 2 and "sekrit-token" not in result.stderr + result.stdout


def test_the_log_level_may_be_written_in_any_case(tmp_path: Path) -> None:
    result = run(["doctor"], tmp_path, LOG_LEVEL="debug")
    assert "Traceback" not in result.stderr and "LOG_LEVEL" not in result.stderr
    assert result.stdout.startswith("settings")  # it loaded


def test_a_named_env_file_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    result = run(["--env-file", str(tmp_path / "nope"), "doctor"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == f"debate-room: --env-file {tmp_path / 'nope'}: no such file"


def test_env_file_may_follow_the_subcommand(tmp_path: Path) -> None:
    (tmp_path / "other.env").write_text("LANGUAGE=fr\n", encoding="utf-8")
    result = run(["doctor", "--env-file", "other.env"], tmp_path)
    assert result.returncode == 2 and "LANGUAGE" in result.stderr


def test_help_is_a_command_too(tmp_path: Path) -> None:
    result = run(["help"], tmp_path)
    assert result.returncode == 0 and "doctor" in result.stdout and "console" in result.stdout


def test_a_discord_it_cannot_reach_at_start_up_is_one_line(tmp_path: Path) -> None:
    # The loopback port 9 refuses the connection, as a DNS failure or an outage would fail it.
    result = run(
        [],
        tmp_path,
        DISCORD_TOKEN="a.b.c",
        GEMINI_API_KEY="k",
        AG_USER_IDS="42",
        FAKE_DISCORD="http://127.0.0.1:9",
        PYTHONPATH=os.pathsep.join((str(SITECUSTOMIZE_DIR), str(ROOT))),
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 1 and "cannot reach Discord" in errors[0]


def test_doctor_writes_nothing(tmp_path: Path) -> None:
    """doctor on a fresh folder creates no database, wiki folder or data folder: it says
    what `run` will make instead."""
    data = tmp_path / "data"
    result = run(
        ["doctor"],
        tmp_path,
        DATA_DIR=str(data),
        LOCAL_WIKI_DIR=str(data / "wiki"),
        DATABASE_PATH=str(data / "bot.sqlite3"),
        PARTICIPANTS="claude:claude-cli,critic:claude-cli",
    )
    assert "Traceback" not in result.stderr, result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line[:1].isalpha()}
    assert "not created yet (`run` creates it)" in lines["database"], result.stdout
    assert "not made yet: the first page makes it" in lines["wiki"], result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [".env"]  # the test's own, empty
