"""`debate-room worker` as a user runs it: it needs the shared database and says so."""

from __future__ import annotations

from pathlib import Path

from tests.project.test_cli import run


def test_a_worker_without_database_url_says_why_and_exits_2(tmp_path: Path) -> None:
    result = run(["worker"], tmp_path, DISCORD_TOKEN="x", GEMINI_API_KEY="k", AG_USER_IDS="42")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("debate-room: DATABASE_URL is not set")
    assert "PostgreSQL" in lines[0] and "Traceback" not in result.stderr
    assert not (tmp_path / "db.sqlite3").exists()  # it opened no SQLite file instead


def test_a_worker_needs_the_token_like_run(tmp_path: Path) -> None:
    result = run(["worker"], tmp_path, DATABASE_URL="postgresql://u@127.0.0.1:1/x")
    assert result.returncode == 2 and "DISCORD_TOKEN is not set" in result.stderr


def test_help_lists_the_worker(tmp_path: Path) -> None:
    result = run(["--help"], tmp_path)
    assert "worker" in result.stdout and "DATABASE_URL" in result.stdout
