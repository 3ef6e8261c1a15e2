"""With the relay in the debate thread, the prompt and AG's raw messages leave the thread once
AG's turn is stored and shown as its embed (`clear_relay`, run by the room's post_turn)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import discord
import pytest

from bot.discord.relay_tidy import clear_relay
from handlers.core.model import AG, Turn, TurnMeta
from handlers.core.reply.parser import parse_reply
from handlers.ports import DebaterOutput
from tests.bot.discord.test_ag_relay import (
    BLOCK,
    ag_says,
    make_relay,
    open_thread,
    prompt_in,
    request,
)
from tests.fakes.discord_fixtures import ListeningClient
from tests.fakes.fake_discord import FakeDiscord
from tools.store.db import Database
from tools.store.room_messages import RoomMessages

TAG = "[debate 12 · turn 2]"


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """The store on SQLite, then on PostgreSQL."""
    database = await Database.open(database_target)
    yield database
    await database.close()


def stored(output: DebaterOutput, seat: str = AG) -> Turn:
    """The turn as the engine stores it (debate 12, turn 2)."""
    return Turn(
        12,
        2,
        1,
        seat,
        output.text,
        output.raw,
        "0" * 64,
        parse_reply(output.text),
        TurnMeta(),
        datetime.now(UTC),
    )


def ag_id(ag_client: ListeningClient) -> str:
    assert ag_client.user is not None
    return str(ag_client.user.id)


async def test_the_prompt_and_ags_messages_leave_the_thread_in_one_call(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    long_prompt = "Claude의 답 전문: " + "본문 " * 900  # two parts
    task = asyncio.create_task(relay.speak(request(prompt=long_prompt)))
    await prompt_in(fake, thread_id, TAG)
    await ag_says(ag_client, thread_id, "1/2 캐시는")
    attachment = discord.File(io.BytesIO(("2/2 본문\n" + BLOCK).encode()), filename="reply.md")
    await ag_says(ag_client, thread_id, "2/2 첨부", file=attachment)
    output = await asyncio.wait_for(task, 5)
    before = len(fake.messages_in(str(thread_id)))

    await clear_relay(client, RoomMessages(db), stored(output))
    left = fake.messages_in(str(thread_id))
    assert len(left) == before - 4  # two prompt parts, two AG messages
    assert not [m for m in left if m["author"]["id"] == ag_id(ag_client)]
    assert not [m for m in left if TAG in m["content"] or "본문 본문" in m["content"]]
    assert len([c for c in fake.calls if c.path.endswith("/bulk-delete")]) == 1
    # Nothing is lost: the stored turn keeps every message and the file.
    assert output.text == f"1/2 캐시는\n2/2 첨부\n2/2 본문\n{BLOCK}"
    assert [m["content"] for m in json.loads(output.raw)["messages"]] == ["1/2 캐시는", "2/2 첨부"]

    calls = len(fake.calls)
    # a repeated PostTurn (after a restart)
    await clear_relay(client, RoomMessages(db), stored(output))
    assert len(fake.calls) == calls  # done once, remembered


async def test_a_repeat_after_a_crash_finishes_what_was_left(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    task = asyncio.create_task(relay.speak(request()))
    first = await prompt_in(fake, thread_id, TAG)
    await ag_says(ag_client, thread_id, BLOCK)
    output = await asyncio.wait_for(task, 5)
    await client.http.delete_message(thread_id, int(first["id"]))  # gone before the crash
    await clear_relay(client, RoomMessages(db), stored(output))
    assert not [m for m in fake.messages_in(str(thread_id)) if m["content"] == BLOCK]


async def test_without_manage_messages_only_the_prompt_goes_and_the_log_says_why(
    fake: FakeDiscord,
    client: ListeningClient,
    ag_client: ListeningClient,
    db: Database,
    caplog: pytest.LogCaptureFixture,
) -> None:
    thread_id = await open_thread(fake, client, db)
    relay = make_relay(client, db, ag_client)
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, thread_id, TAG)
    await ag_says(ag_client, thread_id, BLOCK)
    output = await asyncio.wait_for(task, 5)
    fake.inject_error("POST", r".*/bulk-delete$", 403, code=50013, message="Missing Permissions")
    with caplog.at_level(logging.WARNING, logger="bot.relay_tidy"):
        await clear_relay(client, RoomMessages(db), stored(output))
    left = fake.messages_in(str(thread_id))
    assert [m["content"] for m in left if m["author"]["id"] == ag_id(ag_client)] == [BLOCK]
    assert not [m for m in left if TAG in m["content"]]
    assert "Manage Messages" in caplog.text


async def test_a_relay_channel_of_its_own_is_left_as_a_log(
    fake: FakeDiscord, client: ListeningClient, ag_client: ListeningClient, db: Database
) -> None:
    await open_thread(fake, client, db)
    relay_channel = fake.world.add_text_channel("relay")
    relay = make_relay(client, db, ag_client, relay_channel_id=int(relay_channel["id"]))
    task = asyncio.create_task(relay.speak(request()))
    await prompt_in(fake, int(relay_channel["id"]), TAG)
    await ag_says(ag_client, int(relay_channel["id"]), BLOCK)
    output = await asyncio.wait_for(task, 5)
    await clear_relay(client, RoomMessages(db), stored(output))
    assert len(fake.messages_in(relay_channel["id"])) == 2
    assert not [c for c in fake.calls if c.method == "DELETE" or c.path.endswith("bulk-delete")]
