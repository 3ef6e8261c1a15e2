"""Running `/debate ...` as a person through the fake Discord, and reading the private reply."""

from __future__ import annotations

from typing import Any

from tests.bot.discord.conftest import BotRig
from tests.fakes.discord_commands import NO_PERMISSIONS, slash
from tests.fakes.discord_interactions import CB_MESSAGE, FLAG_EPHEMERAL
from tests.fakes.discord_world import Json

COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"
MANAGE_GUILD = str(1 << 5)


async def registered(rig: BotRig) -> Json:
    """The bot registered its commands in the guild; the `/debate` one as Discord holds it."""
    await rig.fake.wait_for_call("PUT", COMMANDS)
    (command,) = rig.fake.commands[rig.fake.world.guild_id]
    return command


async def run(
    rig: BotRig, user: Json, sub: str, *, permissions: str = NO_PERMISSIONS, **options: Any
) -> str:
    """`user` runs `/debate sub ...`; the reply, checked to be private and to ping nobody."""
    record = await slash(rig.fake, user, "debate", sub, permissions=permissions, **options)
    assert await rig.fake.wait_ack(record) == CB_MESSAGE
    reply = rig.fake.messages[record.response_message_id or ""]
    assert reply["flags"] & FLAG_EPHEMERAL
    assert rig.fake.allowed_mentions[reply["id"]] == {"parse": []}
    return str(reply["content"])
