"""Settings a newcomer gets wrong: every problem in one run, one style, and names that look
like a setting but are not one (a typo, the wrong case) refused instead of ignored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings
from bot.settings_checks import mask_database_url
from handlers.core.participants import MAX_LABEL_CHARS

SIX = ",".join(f"s{n}:claude-cli" for n in range(6))


def problems(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> dict[str, str]:
    """The SettingsError's lines by the setting they name (each line is `NAME...: ...`)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SettingsError) as caught:
        load_settings(".env")
    return {line.split(":")[0].split(" ")[0]: line for line in caught.value.lines}


def test_a_bad_format_is_reported_with_the_others_in_the_same_style(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    lines = problems(monkeypatch, tmp_path, DEFAULT_FORMAT="debate", MAX_ROUNDS="many")
    assert set(lines) == {"DEFAULT_FORMAT", "MAX_ROUNDS"}
    assert lines["DEFAULT_FORMAT"].startswith("DEFAULT_FORMAT: 'debate' is not valid")
    assert "one of free, " in lines["DEFAULT_FORMAT"] and "default free" in lines["DEFAULT_FORMAT"]


def test_six_boardroom_seats_are_taken_and_the_panel_is_narrowed_later(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    lines = problems(
        monkeypatch, tmp_path, DEFAULT_FORMAT="boardroom", PARTICIPANTS=SIX, MAX_ROUNDS="x"
    )
    assert set(lines) == {"MAX_ROUNDS"}  # the format and its six seats are no problem


@pytest.mark.parametrize(
    ("name", "value"),
    [("PARTICIPANTS", "x"), ("BUDGET_PAUSE", "maybe"), ("ADVERSARIAL_RECONCILER", "x")],
)
def test_no_fix_hint_is_vague_or_in_python_s_spelling(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, value: str
) -> None:
    line = problems(monkeypatch, tmp_path, **{name: value})[name]
    assert "a text value" not in line and "a value" not in line and "True" not in line
    assert "; set " in line and ", or leave it blank" in line


@pytest.mark.parametrize(
    ("env", "dotenv", "named", "says"),
    [
        ({}, "MAX_ROUND=3\n", "MAX_ROUND", "rename it MAX_ROUNDS"),
        ({}, "language=en\n", "language", "rename it LANGUAGE"),
        ({"LOGLEVEL": "debug"}, "", "LOGLEVEL", "rename it LOG_LEVEL"),
        ({"GATEWAY_ONLY": "true"}, "", "GATEWAY_ONLY", "DATABASE_URL"),
        ({"WIKIJS_URL": "localhost:3000"}, "", "WIKIJS_URL", "http://"),
        ({"WIKIJS_URL": "http://localhost:3000"}, "", "WIKIJS_API_KEY", "API Access"),
        ({"WIKI_PUBLIC_URL": "wiki.example.org"}, "", "WIKI_PUBLIC_URL", "https://"),
    ],
)
def test_misspelt_or_misplaced_settings_are_refused(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    env: dict[str, str],
    dotenv: str,
    named: str,
    says: str,
) -> None:
    (tmp_path / ".env").write_text(dotenv, encoding="utf-8")
    lines = problems(monkeypatch, tmp_path, **env)
    assert list(lines) == [named] and says in lines[named]


def test_unrelated_environment_variables_are_not_flagged(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    outside = ("ANTHROPIC_API_KEY", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_OAUTH_TOKEN")
    for name in ("PATH", "HOME", "LANG", "MAX_RETRIES", *outside):
        monkeypatch.setenv(name, os.environ.get(name, "x"))
    (tmp_path / ".env").write_text("WIKI_DB_PASSWORD=x\nBOT_DB_PASSWORD=y\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_settings(".env").LANGUAGE == "ko"


def test_run_does_not_start_on_a_misspelt_setting(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=t\nGEMINI_API_KEY=k\nMAX_ROUND=3\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GEMINI_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "debate-room: MAX_ROUND (in .env): not a setting, so it is ignored; rename it MAX_ROUNDS"
    )


def test_data_dir_expands_the_home_folder_and_moves_the_default_database(tmp_path: Path) -> None:
    home = Settings.model_validate({"DATA_DIR": "~/debate-data"})
    assert Path.home() / "debate-data" == home.DATA_DIR
    assert Path.home() / "debate-data" / "debate-room.sqlite3" == home.DATABASE_PATH
    kept = Settings.model_validate({"DATA_DIR": tmp_path, "DATABASE_PATH": "elsewhere.db"})
    assert Path("elsewhere.db") == kept.DATABASE_PATH
    assert Path("data/debate-room.sqlite3") == Settings.model_validate({}).DATABASE_PATH


def test_data_dir_from_the_environment_moves_the_database_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "state"))
    assert tmp_path / "state" / "debate-room.sqlite3" == load_settings(None).DATABASE_PATH


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://u:p@ss#w0rd@host/db",
        "postgresql://u:p#ss@w0rd@host/db",
        "postgresql://u:pa@ss@host/db",
    ],
)
def test_a_password_with_at_or_hash_is_masked_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str
) -> None:
    assert mask_database_url(url) == "postgresql://u:***@host/db"
    line = problems(monkeypatch, tmp_path, DATABASE_URL=url)["DATABASE_URL"]
    assert "postgresql://u:***@host/db" in line and "%40" in line
    shown = line.split("; set ")[0]  # the hint after it spells out a placeholder URL
    assert "w0rd" not in shown and "ss@" not in shown and "ss#" not in shown


def test_a_percent_encoded_password_is_accepted_and_masked() -> None:
    shown = Settings.model_validate({"DATABASE_URL": "postgresql://u:p%40ss%23w0rd@host/db"})
    assert shown.database_shown == "postgresql://u:***@host/db"


def test_log_level_and_moderator_backend_are_read_however_they_are_cased(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LOG_LEVEL", " warning ")
    monkeypatch.setenv("MODERATOR_BACKEND", "CLI")
    monkeypatch.chdir(tmp_path)
    settings = load_settings(".env")
    assert (settings.LOG_LEVEL, settings.MODERATOR_BACKEND) == ("WARNING", "cli")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BUDGET_USD", "inf"),  # passed once, then no debate's state could be stored
        ("BUDGET_USD", "nan"),
        ("BUDGET_USD", "1e308"),
        ("CLAUDE_TIMEOUT_SECONDS", "Infinity"),
        ("LEASE_SECONDS", "1e300"),  # a lease that long is no date
        ("PROPOSAL_TTL_MINUTES", "99999999999"),
    ],
)
def test_a_figure_out_of_any_sane_range_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, value: str
) -> None:
    line = problems(monkeypatch, tmp_path, **{name: value})[name]
    assert line.startswith(f"{name}: {value!r} is not valid") and "<= " in line


@pytest.mark.parametrize(
    "roster",
    [
        f"ag:ag-relay:AG,claude:claude-cli:{'x' * 3000}",
        f"ag:ag-relay:AG:{'x' * 81},claude:claude-cli",
    ],
)
def test_a_participants_name_or_persona_past_the_limit_stops_start_up_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, roster: str
) -> None:
    line = problems(monkeypatch, tmp_path, PARTICIPANTS=roster)["PARTICIPANTS"]
    assert f"at most {MAX_LABEL_CHARS}" in line
    assert len(line) < 400  # the 3,000 characters are not repeated back


@pytest.mark.parametrize("with_file", [False, True])
def test_run_refused_without_a_dot_env_says_none_was_found(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    with_file: bool,
) -> None:
    """`run` from a folder with no `.env` says so first (where it looked, how to make one);
    with a `.env` there, the refusal names only the settings."""
    from bot.__main__ import EXIT_SETTINGS, main  # noqa: PLC0415

    for name in list(os.environ):
        if name.startswith(("DISCORD_", "GEMINI_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    if with_file:
        (tmp_path / ".env").write_text("MAX_ROUNDS=3\n", encoding="utf-8")
    assert main(["run"]) == EXIT_SETTINGS
    lines = capsys.readouterr().err.splitlines()
    said_none = f"debate-room: no .env in {tmp_path} (settings come from the environment only)"
    assert lines[0].startswith(said_none) is not with_file
    assert any("DISCORD_TOKEN is not set" in line for line in lines)


async def test_refused_settings_wait_for_a_stop_under_a_restart_policy(tmp_path: Path) -> None:
    """With WAIT_ON_BAD_SETTINGS (docker-compose.yml sets it), `run` on a blank key prints
    what is wrong and what to do, then waits, not exiting into a restart loop; a stop ends
    it cleanly (exit 0)."""
    import asyncio  # noqa: PLC0415
    import signal  # noqa: PLC0415

    from bot.__main__ import WAITING  # noqa: PLC0415

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GEMINI_"))}
    env |= {
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "WAIT_ON_BAD_SETTINGS": "true",
        "WIKIJS_URL": "http://wiki:3000",  # and WIKIJS_API_KEY still blank, as on a first start
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    said: list[str] = []
    try:
        async with asyncio.timeout(60):
            while not said or WAITING not in said[-1]:
                line = await process.stderr.readline()
                assert line, f"exited instead of waiting: {said}"
                said.append(line.decode())
        assert process.returncode is None  # still there, waiting
        assert any(line.startswith("debate-room: WIKIJS_API_KEY") for line in said), said
        process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            assert await process.wait() == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
