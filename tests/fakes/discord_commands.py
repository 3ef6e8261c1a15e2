"""The fake Discord's application commands: the bot's per-guild registration and a slash command.

`PUT /applications/{app}/guilds/{guild}/commands` (bulk overwrite) stores the commands with ids
and answers them as Discord does; `GET` lists them. `fake.slash(user, "debate", "list", ...)`
sends an APPLICATION_COMMAND interaction (type 2) for a registered command's subcommand, with
the user's permissions in the channel (Discord computes them; a test states them), and refuses
a command or an option the bot never registered, as Discord's client would not offer it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakes.discord_interactions import JSON_BODY, InteractionRecord
from tests.fakes.discord_limits import DiscordError
from tests.fakes.discord_world import ALL_PERMISSIONS, Json

if TYPE_CHECKING:
    from tests.fakes.fake_discord import FakeDiscord

V = r"/api/v{version:\d+}"  # as the REST routes write it: calls are recorded by template
APPLICATION_COMMAND, CHAT_INPUT, SUBCOMMAND = 2, 1, 1
NO_PERMISSIONS = "0"


def add_command_routes(router: web.UrlDispatcher, fake: FakeDiscord) -> None:
    """PUT and GET /applications/{application_id}/guilds/{guild_id}/commands."""

    def checked(request: web.Request) -> str:
        if request.match_info["application_id"] != fake.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        if request.match_info["guild_id"] not in fake.world.guild_ids:
            raise DiscordError(404, 10004, "Unknown Guild")
        return request.match_info["guild_id"]

    async def overwrite(request: web.Request) -> Any:
        guild_id = checked(request)
        fake.commands[guild_id] = [_stored(fake, guild_id, c) for c in request[JSON_BODY] or []]
        return fake.commands[guild_id]

    async def listed(request: web.Request) -> Any:
        return fake.commands.get(checked(request), [])

    path = V + "/applications/{application_id}/guilds/{guild_id}/commands"
    router.add_route("PUT", path, overwrite)
    router.add_route("GET", path, listed)


def _stored(fake: FakeDiscord, guild_id: str, command: Json) -> Json:
    """A registered command as Discord answers it."""
    return {
        "id": fake.world.ids.next(),
        "application_id": fake.application_id,
        "version": fake.world.ids.next(),
        "default_member_permissions": command.get("default_member_permissions"),
        "type": command.get("type", CHAT_INPUT),
        "name": command["name"],
        "description": command.get("description", ""),
        "guild_id": guild_id,
        "options": command.get("options", []),
        "nsfw": bool(command.get("nsfw", False)),
    }


async def slash(
    fake: FakeDiscord,
    user: Json,
    command: str,
    sub: str,
    *,
    channel_id: str | None = None,
    permissions: str = ALL_PERMISSIONS,
    **options: Any,
) -> InteractionRecord:
    """`user` runs `/command sub option:value ...` in a channel (the text channel by default),
    in that channel's server."""
    channel = channel_id or fake.text_channel["id"]
    guild_id = fake.world.channels[channel]["guild_id"]
    registered = next((c for c in fake.commands.get(guild_id, []) if c["name"] == command), None)
    if registered is None:
        raise AssertionError(f"/{command} is not registered in server {guild_id}")
    subcommand = next((o for o in registered["options"] if o["name"] == sub), None)
    if subcommand is None or subcommand["type"] != SUBCOMMAND:
        raise AssertionError(f"/{command} has no subcommand {sub!r}")
    kinds = {o["name"]: o["type"] for o in subcommand.get("options", [])}
    if not set(options) <= set(kinds):
        raise AssertionError(f"/{command} {sub} has no option {sorted(set(options) - set(kinds))}")
    given = [{"name": n, "type": kinds[n], "value": v} for n, v in options.items()]
    data = {
        "id": registered["id"],
        "name": command,
        "type": CHAT_INPUT,
        "guild_id": guild_id,
        "options": [{"name": sub, "type": SUBCOMMAND, "options": given}],
    }
    return await fake.interact(
        APPLICATION_COMMAND, data, user, channel, None, permissions=permissions
    )
