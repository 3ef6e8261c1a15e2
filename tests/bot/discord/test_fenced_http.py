"""The lease's last check, in the real discord.py client's HTTP session against the fake
Discord: a request a debate's worker makes goes out only while this process holds the lease
by its own clock, checked again when discord.py sends it once more after a 429; requests made
for no debate are not touched."""

from __future__ import annotations

import asyncio
import re

import discord
import pytest

from bot.discord.fenced_http import lease_fence
from handlers.leasing import ACTING_FOR, LeaseLost
from tests.fakes.discord_fixtures import ListeningClient, start_client, stop_client
from tests.fakes.fake_discord import FakeDiscord

EDIT = "/channels/{channel_id}/messages/{message_id}"


class Lease:
    """One debate's lease, lapsing when the test says (the process's local deadline)."""

    def __init__(self) -> None:
        self.held = True

    def holds(self, debate_id: int) -> bool:
        return self.held

    def generation(self, debate_id: int) -> int | None:
        return 1 if self.held else None

    async def confirm(self, debate_id: int) -> None:
        if not self.held:
            raise LeaseLost(debate_id)


async def test_a_retry_after_a_429_is_not_sent_once_the_lease_lapsed(fake: FakeDiscord) -> None:
    lease = Lease()
    bot = ListeningClient(http_trace=lease_fence(lease))
    task = await start_client(bot, fake.token)
    try:
        channel = bot.get_channel(int(fake.text_channel["id"]))
        assert isinstance(channel, discord.TextChannel)

        async def worker() -> discord.Message:  # a debate's worker: its requests are fenced
            ACTING_FOR.set(7)
            sent = await channel.send("speaking")
            path = f"/channels/{channel.id}/messages/{sent.id}"
            fake.inject_error("PATCH", re.escape(path), 429, retry_after=0.5)
            edit = asyncio.create_task(sent.edit(content="still speaking"))
            await fake.wait_for_call("PATCH", EDIT, lambda c: c.status == 429)
            lease.held = False  # the process stops acting during discord.py's wait
            with pytest.raises(LeaseLost):
                await edit
            return sent

        sent = await asyncio.create_task(worker())
        assert [c.status for c in fake.calls_to("PATCH", EDIT)] == [429]  # no retry went out
        assert fake.messages[str(sent.id)]["content"] == "speaking"
        await channel.send("for no debate")  # the gateway's own work is not fenced
    finally:
        await stop_client(bot, task)
