"""The `debate-room` command as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "GEMINI_", "WIKIJS_", "CLAUDE_", "DEBATE_"))
    }
    clean |= {"DATABASE_PATH": str(tmp_path / "db.sqlite3"), **env}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_without_a_token_it_names_it_in_one_line_and_exits_2(tmp_path: Path) -> None:
    result = run([], tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("debate-room: DISCORD_TOKEN is not set")
    assert "debate-room demo" in lines[0]
    assert "Traceback" not in result.stderr


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
    assert "database" in result.stdout and "ok" in result.stdout
    assert (tmp_path / "db.sqlite3").exists()


def test_doctor_fails_on_a_database_it_cannot_open(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("x")
    result = run(["doctor"], tmp_path, DATABASE_PATH=str(tmp_path / "blocker" / "db.sqlite3"))
    assert result.returncode == 1
    line = next(x for x in result.stdout.splitlines() if x.startswith("database"))
    assert "failing" in line


def test_a_write_tool_for_claude_is_refused_in_one_line(tmp_path: Path) -> None:
    result = run(["doctor"], tmp_path, CLAUDE_TOOLS="Read,Bash,Write")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "CLAUDE_TOOLS" in lines[0] and "Bash, Write" in lines[0]
