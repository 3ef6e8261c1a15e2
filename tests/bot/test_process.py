"""The bot as a subprocess (`debate-room`) against the fake Discord and the fake Gemini."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.discord.support import CHAT, custom_ids
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
    assert card["embeds"][0]["fields"][0]["value"] == "auto topic"  # the fake Gemini's topic
    assert custom_ids(card)[0].startswith("debate:open:")
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
