"""The bot as a subprocess (`debate-room`) against the fake Discord and the fake Gemini."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.bot.discord.support import CHAT, custom_ids
from tests.fakes.discord_limits import as_embed
from tests.fakes.discord_loopback import subprocess_env
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_gemini import FakeGemini

GEMINI_KEY = "dummy-gemini-key-for-tests"


@pytest.fixture
async def gemini() -> AsyncIterator[FakeGemini]:
    server = await FakeGemini(auto=True).start()
    yield server
    await server.stop()


def command() -> list[str]:
    """The console script next to this interpreter, else `python -m bot`."""
    script = Path(sys.executable).with_name("debate-room")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot"]


def bot_env(fake: FakeDiscord, gemini: FakeGemini, tmp_path: Path, ag_id: str) -> dict[str, str]:
    """The bot's environment: the fakes, a temp database and wiki, no retry waits."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GOOGLE_", "GEMINI_"))}
    env = subprocess_env(fake.base_url, base=base)
    env.update(
        DISCORD_TOKEN=fake.token,
        GEMINI_API_KEY=GEMINI_KEY,
        GOOGLE_GEMINI_BASE_URL=gemini.url,
        DEBATE_CHANNEL_IDS=fake.text_channel["id"],
        AG_USER_IDS=ag_id,
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        LOCAL_WIKI_DIR=str(tmp_path / "wiki"),
        DATA_DIR=str(tmp_path / "data"),
        RETRY_WAIT_SCALE="0",
        BUDGET_PAUSE="false",
        DETECT_COOLDOWN_SECONDS="0",
        DETECT_MIN_NEW_MESSAGES="2",
        LOG_LEVEL="INFO",
    )
    return env


async def test_the_bot_runs_as_debate_room_and_proposes_a_debate(
    fake: FakeDiscord, gemini: FakeGemini, tmp_path: Path
) -> None:
    ag, _ = fake.add_bot("AG")
    alice, carol = fake.add_user("alice"), fake.add_user("carol")
    env = bot_env(fake, gemini, tmp_path, ag["id"])
    proc = await asyncio.create_subprocess_exec(
        *command(),
        env=env,
        cwd=tmp_path,  # no .env here
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        await fake.wait_connected(timeout=30)
        await fake.user_message(alice, CHAT[0])
        await fake.user_message(carol, CHAT[1])
        card = await fake.wait_for_message(
            lambda m: m["author"]["id"] == fake.bot_user["id"] and bool(m["components"]),
            timeout=20,
        )
        proc.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(proc.communicate(), 20)
    finally:
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
    log = stderr.decode()
    assert proc.returncode == 0, log[-3000:]
    assert as_embed(card)["fields"][0]["value"] == "auto topic"  # the fake Gemini's topic
    assert f"debate:open:{custom_ids(card)[-1].rsplit(':', 1)[1]}" in custom_ids(card)
    assert len(gemini.generate_requests) == 1  # one detection request for the conversation
    assert "debate-room started" in log
    assert " ERROR " not in log and "Traceback" not in log, log[-3000:]
    assert fake.token not in log and GEMINI_KEY not in log


async def test_a_refused_token_stops_the_bot_with_one_line(
    fake: FakeDiscord, gemini: FakeGemini, tmp_path: Path
) -> None:
    ag, _ = fake.add_bot("AG")
    env = bot_env(fake, gemini, tmp_path, ag["id"]) | {"DISCORD_TOKEN": "revoked-token-value"}
    proc = await asyncio.create_subprocess_exec(
        *command(), env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, stderr = await asyncio.wait_for(proc.communicate(), 20)
    log = stderr.decode()
    assert proc.returncode == 1, log[-2000:]
    assert "Discord refused the token (DISCORD_TOKEN)" in log
    assert "revoked-token-value" not in log and "Traceback" not in log


async def test_the_message_content_intent_off_is_one_line_naming_it_and_exit_2(
    gemini: FakeGemini, tmp_path: Path
) -> None:
    off = await FakeDiscord(approved_intents=discord.Intents.default().value).start()
    try:
        ag, _ = off.add_bot("AG")
        env = bot_env(off, gemini, tmp_path, ag["id"])
        proc = await asyncio.create_subprocess_exec(
            *command(), env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        _, stderr = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        await off.stop()
    log = stderr.decode()
    assert proc.returncode == 2, log[-2000:]
    assert "Traceback" not in log and "PrivilegedIntentsRequired" not in log
    errors = [line for line in log.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "Message Content Intent" in errors[0], log[-2000:]
    assert "Developer Portal" in errors[0] and "Privileged Gateway Intents" in errors[0]
    assert "members" not in errors[0].lower()  # only the intent this bot asks for


@pytest.mark.parametrize(
    ("args", "env", "named"),
    [
        (["demo", "--out", "{file}/demo"], {}, "--out"),
        (["demo", "--out", "/proc/debate-room-demo"], {}, "--out"),
        (["console", "--claude", "human"], {"DATA_DIR": "{file}/data"}, "DATA_DIR"),
        (["console", "--claude", "human"], {"LOCAL_WIKI_DIR": "/proc/wiki"}, "LOCAL_WIKI_DIR"),
    ],
)
def test_a_folder_it_cannot_write_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], env: dict[str, str], named: str
) -> None:
    blocker = tmp_path / "a-file"  # root writes anywhere, but never under a regular file
    blocker.write_text("x")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "WIKIJS_"))}
    base |= {"DATA_DIR": str(tmp_path / "data"), "LOCAL_WIKI_DIR": str(tmp_path / "wiki")}
    base |= {k: v.format(file=blocker) for k, v in env.items()}
    done = subprocess.run(
        [*command(), *(a.format(file=blocker) for a in args)],
        cwd=tmp_path,
        env=base,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr + done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"debate-room: {named} ") and "cannot write there" in line
