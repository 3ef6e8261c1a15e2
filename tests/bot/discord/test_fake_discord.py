"""The loopback fake itself: what the product relies on behaves as Discord does."""

from __future__ import annotations

import asyncio
import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakes.discord_fixtures import ListeningClient, start_client, stop_client
from tests.fakes.discord_limits import DiscordError, validate_message
from tests.fakes.discord_loopback import redirected, subprocess_env
from tests.fakes.fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[3]
MESSAGES = "/channels/{channel_id}/messages"


def general(fake: FakeDiscord, client: discord.Client) -> discord.TextChannel:
    channel = client.get_channel(int(fake.text_channel["id"]))
    assert isinstance(channel, discord.TextChannel)
    return channel


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"content": "x" * 2001}, 50035),
        ({"embeds": [{"description": "x"}] * 11}, 50035),
        ({"embeds": [{"description": "x" * 4097}]}, 50035),
        ({"embeds": [{"title": "x" * 257}]}, 50035),
        ({"embeds": [{"description": "x" * 3000}, {"description": "x" * 3001}]}, 50035),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, 50035),
        ({"components": [{"type": 1, "components": []}] * 6}, 50035),
        (
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "x" * 101}]}
                ]
            },
            50035,
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "custom_id": "a"},
                            {"type": 2, "style": 1, "custom_id": "a"},
                        ],
                    }
                ]
            },
            50035,
        ),
        ({}, 50006),
    ],
)
def test_limits_are_discords(body: dict[str, Any], code: int) -> None:
    with pytest.raises(DiscordError) as caught:
        validate_message(body)
    assert caught.value.code == code


def test_a_message_at_the_limits_passes() -> None:
    validate_message(
        {
            "content": "x" * 2000,
            "embeds": [{"description": "x" * 4096}, {"description": "x" * 1904}],
        }
    )


async def test_rejections_reach_the_client_and_pings_are_recorded(
    fake: FakeDiscord, client: discord.Client
) -> None:
    channel = general(fake, client)
    fake.contract.expect_violation(
        "POST", MESSAGES, match=r"^embeds/0/description \[maxLength 4096\]"
    )
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(embed=discord.Embed(description="x" * 5000))
    assert caught.value.code == 50035 and caught.value.status == 400
    loud = await channel.send("@everyone look")
    quiet = await channel.send("@everyone look", allowed_mentions=discord.AllowedMentions.none())
    assert fake.world.was_pinged(str(loud.id)) and fake.allowed_mentions[str(loud.id)] is None
    assert not fake.world.was_pinged(str(quiet.id))


async def test_history_pins_edits_nonce_threads_and_typing(
    fake: FakeDiscord, client: discord.Client
) -> None:
    channel = general(fake, client)
    sent = [await channel.send(f"m{i}") for i in range(7)]
    after = [m.content async for m in channel.history(after=sent[1], limit=3, oldest_first=True)]
    before = [m.content async for m in channel.history(before=sent[4], limit=2)]
    around = [m.content async for m in channel.history(around=sent[3], limit=3)]
    assert after == ["m2", "m3", "m4"] and before == ["m3", "m2"]
    assert sorted(around) == ["m2", "m3", "m4"]

    await sent[0].pin()
    assert fake.messages[str(sent[0].id)]["pinned"]
    assert [m.id async for m in channel.pins()] == [sent[0].id]
    system = fake.messages_in(fake.text_channel["id"])[-1]
    assert system["type"] == 6 and system["message_reference"]["message_id"] == str(sent[0].id)

    await sent[1].edit(content="edited")
    assert fake.messages[str(sent[1].id)]["content"] == "edited"

    twice = [await channel.send("once", nonce="same-nonce") for _ in range(2)]
    assert twice[0].id == twice[1].id

    thread = await sent[2].create_thread(name="t")
    assert thread.id == sent[2].id
    with pytest.raises(discord.HTTPException) as caught:
        await sent[2].create_thread(name="again")
    assert caught.value.code == 160004
    async with thread.typing():
        pass
    assert (str(thread.id), fake.bot_user["id"]) in fake.world.typing


async def test_only_the_author_may_edit_and_attachments_download(
    fake: FakeDiscord, client: ListeningClient
) -> None:
    alice = fake.add_user("alice")
    received: list[discord.Message] = []
    arrived = asyncio.Event()

    async def listen(message: discord.Message) -> None:
        received.append(message)
        arrived.set()

    client.message_listeners.append(listen)
    stored = await fake.user_message(alice, "see file", attachments=[("notes.md", "# 안녕")])
    await asyncio.wait_for(arrived.wait(), 5)
    (message,) = received
    assert message.author.id == int(alice["id"])
    assert await message.attachments[0].read() == "# 안녕".encode()
    with pytest.raises(discord.Forbidden):
        await message.edit(content="not mine")
    assert fake.messages[stored["id"]]["content"] == "see file"


class StopButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"debate:stop:(?P<id>\d+)"
):
    """A persistent button with its state in the custom_id, as the product's."""

    clicks: list[tuple[int, int, list[int]]] = []  # noqa: RUF012  # shared with the test

    def __init__(self, debate_id: int) -> None:
        super().__init__(discord.ui.Button(label="Stop", custom_id=f"debate:stop:{debate_id}"))
        self.debate_id = debate_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> StopButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.user, discord.Member)
        roles = [role.id for role in interaction.user.roles]
        StopButton.clicks.append((self.debate_id, interaction.user.id, roles))
        await interaction.response.send_message("ok", ephemeral=True)


async def test_anyone_can_click_a_dynamic_button_even_after_a_restart(
    fake: FakeDiscord, errors: Any
) -> None:
    StopButton.clicks.clear()
    approver = fake.world.add_role("approver")
    bob = fake.add_user("bob", roles=[approver["id"]])
    carol = fake.add_user("carol")
    first = ListeningClient()
    first.add_dynamic_items(StopButton)
    task = await start_client(first, fake.token)
    view = discord.ui.View(timeout=None)
    view.add_item(StopButton(12))
    status = await general(fake, first).send("status", view=view)
    record = await fake.click(str(status.id), "debate:stop:12", bob)
    assert await fake.wait_ack(record) == 4
    await stop_client(first, task)

    second = ListeningClient()  # a restarted bot: a new client, the same custom_ids
    second.add_dynamic_items(StopButton)
    task = await start_client(second, fake.token)
    record = await fake.click(str(status.id), "debate:stop:12", carol)
    assert await fake.wait_ack(record) == 4
    await stop_client(second, task)
    assert StopButton.clicks == [
        (12, int(bob["id"]), [int(fake.world.guild_id), int(approver["id"])]),
        (12, int(carol["id"]), [int(fake.world.guild_id)]),
    ]
    assert not errors.records, errors.describe()


SUBPROCESS_BOT = """
import asyncio, os, discord
async def main():
    client = discord.Client(intents=discord.Intents.default())
    @client.event
    async def on_ready():
        await client.get_channel(int(os.environ["CHANNEL"])).send("hello from a subprocess")
        await client.close()
    await client.start(os.environ["TOKEN"])
asyncio.run(main())
"""


async def test_a_bot_subprocess_is_redirected_by_sitecustomize(fake: FakeDiscord) -> None:
    env = subprocess_env(fake.base_url)
    env.update(TOKEN=fake.token, CHANNEL=fake.text_channel["id"])
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SUBPROCESS_BOT,
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        message = await fake.wait_for_message(
            lambda m: m["content"] == "hello from a subprocess", timeout=20
        )
        _, stderr = await asyncio.wait_for(proc.communicate(), 20)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, stderr.decode()[-2000:]
    assert message["author"]["id"] == fake.bot_user["id"]


async def test_the_standalone_fake_is_driven_through_its_control_api(errors: Any) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fakes.fake_discord",
        "--port",
        "0",
        "--token",
        "tok",
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        world = json.loads(await asyncio.wait_for(proc.stdout.readline(), 20))
        base = world["base_url"]
        async with aiohttp.ClientSession() as http:
            alice = await (await http.post(f"{base}/_fake/users", json={"name": "alice"})).json()
            with redirected(f"{base}/api/v10", f"ws://127.0.0.1:{world['port']}/gateway"):
                bot = ListeningClient()
                seen: asyncio.Queue[discord.Message] = asyncio.Queue()
                bot.message_listeners.append(seen.put)
                task = await start_client(bot, "tok")
                await http.post(
                    f"{base}/_fake/messages", json={"author_id": alice["id"], "content": "안녕"}
                )
                message = await asyncio.wait_for(seen.get(), 5)
                await stop_client(bot, task)
            listed = await (await http.get(f"{base}/_fake/messages")).json()
            contract = await (await http.get(f"{base}/_fake/contract")).json()
        assert message.content == "안녕" and message.author.id == int(alice["id"])
        assert [m["content"] for m in listed] == ["안녕"]
        assert contract["checked"] > 0 and contract["violations"] == []
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 10)
    assert not errors.records, errors.describe()


async def test_poll_in_the_fake_as_discord_py_reads_it(
    fake: FakeDiscord, client: discord.Client
) -> None:
    channel = general(fake, client)
    too_long = discord.Poll(question="q?", duration=datetime.timedelta(hours=1))
    too_long.add_answer(text="x" * 56)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(poll=too_long)
    assert refused.value.code == 50035

    poll = discord.Poll(question="Which one?", duration=datetime.timedelta(hours=3))
    poll.add_answer(text="LRU").add_answer(text="Redis")
    sent = await channel.send(poll=poll)
    voter = fake.add_user("voter")
    await fake.vote(str(sent.id), voter, 2)
    await fake.vote(str(sent.id), fake.owner, 2)
    await fake.vote(str(sent.id), voter, 1)  # one vote each: a second one replaces the first
    read = await channel.fetch_message(sent.id)
    assert read.poll is not None and not read.poll.is_finalised()
    assert [(a.text, a.vote_count) for a in read.poll.answers] == [("LRU", 1), ("Redis", 1)]
    assert read.poll.expires_at is not None
    assert abs(read.poll.expires_at - read.created_at - datetime.timedelta(hours=3)).seconds < 5

    ended = await read.end_poll()  # the author ends it: finalized, Discord's result posted
    assert ended.poll is not None and ended.poll.is_finalised()
    with pytest.raises(discord.HTTPException):
        await ended.end_poll()  # once
    with pytest.raises(DiscordError):
        await fake.vote(str(sent.id), voter, 2)  # closed
    result = fake.messages_in(fake.text_channel["id"])[-1]
    assert result["type"] == 46 and result["message_reference"]["message_id"] == str(sent.id)
    fields = {f["name"]: f["value"] for f in result["embeds"][0]["fields"]}
    assert fields["total_votes"] == "2" and "victor_answer_id" not in fields  # a tie
