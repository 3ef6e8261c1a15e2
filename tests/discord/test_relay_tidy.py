"""With the relay in the debate thread, the prompt and AG's raw messages leave the thread once
AG's reply is taken (the room then posts the reply once, as its embed)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.discord.test_ag_relay import BLOCK, ag_says, make_relay, open_thread, prompt_in, request
from tests.fakes.discord_fixtures import ListeningClient
from tests.fakes.fake_discord import FakeDiscord
from tools.db import Database

TAG = "[debate 12 · turn 2]"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(str(tmp_path / "relay.sqlite3"))
    yield database
    await database.close()


async def test_the_prompt_and_ags_messages_are_removed_once_the_reply_is_taken(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, tidy=True)
    long_prompt = "Claude의 답 전문: " + "본문 " * 900  # two parts
    task = asyncio.create_task(relay.speak(request(prompt=long_prompt)))
    await prompt_in(fake, thread_id, TAG)
    await ag_says(ag_client, thread_id, "1/2 캐시는")
    attachment = discord.File(io.BytesIO(("2/2 본문\n" + BLOCK).encode()), filename="reply.md")
    await ag_says(ag_client, thread_id, "2/2 첨부", file=attachment)
    output = await asyncio.wait_for(task, 5)

    left = fake.messages_in(str(thread_id))
    assert not [m for m in left if m["author"]["id"] == str(ag_client.user.id)]  # type: ignore[union-attr]
    assert not [m for m in left if TAG in m["content"] or "본문 본문" in m["content"]]
    bulk = [c for c in fake.calls if c.path.endswith("/bulk-delete")]
    assert len(bulk) == 1  # one call for the whole turn
    # Nothing is lost: the text and the raw record keep every message and the file.
    assert output.text == f"1/2 캐시는\n2/2 첨부\n2/2 본문\n{BLOCK}"
    raw = json.loads(output.raw)
    assert [m["content"] for m in raw["messages"]] == ["1/2 캐시는", "2/2 첨부"]
    assert raw["messages"][1]["attachments"][0]["text"] == "2/2 본문\n" + BLOCK


async def test_without_manage_messages_only_the_prompt_goes_and_the_log_says_why(
    fake: FakeDiscord,
    client: ListeningClient,
    ag_client: ListeningClient,
    db: Database,
    caplog: pytest.LogCaptureFixture,
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client, tidy=True)
    fake.inject_error("POST", r".*/bulk-delete$", 403, code=50013, message="Missing Permissions")
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, TAG)
    await ag_says(ag_client, thread_id, BLOCK)
    with caplog.at_level(logging.WARNING, logger="bot.relay_tidy"):
        output = await asyncio.wait_for(task, 5)
    assert output.text == BLOCK
    left = fake.messages_in(str(thread_id))
    assert [m["content"] for m in left if m["author"]["id"] == str(ag_client.user.id)] == [BLOCK]  # type: ignore[union-attr]
    assert not [m for m in left if TAG in m["content"]]
    assert "Manage Messages" in caplog.text


async def test_a_separate_relay_channel_is_left_as_a_log(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    await open_thread(fake, client, db)
    relay_channel = fake.world.add_text_channel("relay")
    relay = make_relay(client, db, ag_client, relay_channel_id=int(relay_channel["id"]))
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, int(relay_channel["id"]), TAG)
    await ag_says(ag_client, int(relay_channel["id"]), BLOCK)
    await asyncio.wait_for(task, 5)
    assert len(fake.messages_in(relay_channel["id"])) == 2
    assert not [c for c in fake.calls if c.method == "DELETE" or c.path.endswith("bulk-delete")]
