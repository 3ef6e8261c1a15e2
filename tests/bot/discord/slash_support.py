"""Running `/debate ...` as a person through the fake Discord, and reading the private reply."""

from __future__ import annotations

from typing import Any

from tests.bot.discord.conftest import BotRig
from tests.fakes.discord_commands import NO_PERMISSIONS, slash
from tests.fakes.discord_interactions import CB_MESSAGE, FLAG_EPHEMERAL
from tests.fakes.discord_limits import CONTENT_LIMIT
from tests.fakes.discord_world import Json

COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"
MANAGE_GUILD = str(1 << 5)


async def registered(rig: BotRig, guild_id: str | None = None, *, start: int = 0) -> Json:
    """The bot registered its commands in a server (the first one unless given; from call
    `start` on); the `/debate` one as Discord holds it."""
    guild = guild_id or rig.fake.world.guild_id
    await rig.fake.wait_for_call("PUT", COMMANDS, lambda c: f"/{guild}/" in c.path, start=start)
    (command,) = rig.fake.commands[guild]
    return command


async def run(
    rig: BotRig,
    user: Json,
    sub: str,
    *,
    permissions: str = NO_PERMISSIONS,
    channel_id: str | None = None,
    **options: Any,
) -> str:
    """`user` runs `/debate sub ...` (in the watched channel unless given); the reply, checked
    to be private, to ping nobody and to fit in a message."""
    record = await slash(
        rig.fake, user, "debate", sub, permissions=permissions, channel_id=channel_id, **options
    )
    assert await rig.fake.wait_ack(record) == CB_MESSAGE
    reply = rig.fake.messages[record.response_message_id or ""]
    assert reply["flags"] & FLAG_EPHEMERAL
    assert rig.fake.allowed_mentions[reply["id"]] == {"parse": []}
    assert len(reply["content"]) <= CONTENT_LIMIT
    return str(reply["content"])
