"""Start-up with an unusable database, or one another bot already runs on: one line, exit 2."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Settings for `debate-room run` in the environment; returns where the database goes."""
    for name in list(os.environ):
        if name.startswith(("GOOGLE_", "GEMINI_", "DISCORD_", "DATABASE_")):
            monkeypatch.delenv(name)
    path = tmp_path / "data" / "bot.sqlite3"
    monkeypatch.setenv("DISCORD_TOKEN", "not-used-the-database-fails-first")
    monkeypatch.setenv("GEMINI_API_KEY", "dummy")
    monkeypatch.setenv("AG_USER_IDS", "42")  # the default roster seats AG: run needs its ids
    monkeypatch.setenv("DATABASE_PATH", str(path))
    monkeypatch.setenv("LOCAL_WIKI_DIR", str(tmp_path / "wiki"))
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "empty.env").touch()  # --env-file must exist; an empty one keeps .env out
    yield path


def empty_env(database: Path) -> str:
    """The empty settings file the `env` fixture made (the environment says everything)."""
    return str(database.parent.parent / "empty.env")


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _truncated(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def _text(path: Path) -> None:
    path.write_text("DATABASE_PATH should name an SQLite file, this is a note.\n" * 50)


def _directory(path: Path) -> None:
    path.mkdir()


BROKEN: dict[str, Callable[[Path], None]] = {
    "garbage": _garbage,
    "truncated": _truncated,
    "text": _text,
    "directory": _directory,
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_an_unusable_database_is_one_line_and_exit_2(
    case: str, env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env.parent.mkdir(parents=True)
    BROKEN[case](env)
    assert main(["--env-file", empty_env(env), "run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(env) in err and "Traceback" not in err
    assert err.startswith("debate-room: cannot ")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes whatever the modes say")
@pytest.mark.parametrize("case", ["read-only file", "read-only folder"])
def test_a_read_only_database_is_one_line_and_exit_2(
    case: str, env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = env.parent
    folder.mkdir(parents=True)
    if case == "read-only file":
        sqlite3.connect(env).close()
        env.chmod(stat.S_IRUSR)
    else:
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert main(["--env-file", empty_env(env), "run"]) == 2
    finally:
        folder.chmod(stat.S_IRWXU)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(env) in err and "not writable" in err


def test_a_folder_that_cannot_be_made_is_one_line_and_exit_2(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path("/proc/debate-room/bot.sqlite3")  # even root cannot create a folder in /proc
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert main(["--env-file", empty_env(env), "run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/proc/debate-room" in err and "Traceback" not in err


def test_a_second_bot_on_the_same_database_refuses_to_start(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from tools.store.db_lock import DatabaseLock\n"
            f"lock = DatabaseLock(Path({str(env)!r})); lock.acquire(); "
            "print('locked', flush=True)\n"
            "sys.stdin.read()",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        assert main(["--env-file", empty_env(env), "run"]) == 2
    finally:
        holder.communicate("", timeout=30)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "in use by process" in err and str(env) in err
    assert f"process {holder.pid}" in err
