"""The fake Discord's guild lookups the doctor uses: the roles and one member.

With the channel's `permission_overwrites` these are what Discord computes a member's
permissions in a channel from (`debate-room doctor` does the same over REST).
"""

from __future__ import annotations

from aiohttp import web

from tests.fakes.discord_limits import DiscordError
from tests.fakes.discord_world import Json, World

V = "/api/v10"
MESSAGE_CONTENT_INTENT = 1 << 15
GATEWAY_MESSAGE_CONTENT_LIMITED = 1 << 19  # what the portal's toggle sets below 100 servers


def application_flags(approved_intents: int | None) -> int:
    """The application's flags as the portal's intent toggles leave them."""
    if approved_intents is None or approved_intents & MESSAGE_CONTENT_INTENT:
        return GATEWAY_MESSAGE_CONTENT_LIMITED
    return 0


def add_guild_routes(router: web.UrlDispatcher, world: World) -> None:
    """GET /guilds/{id}/roles and GET /guilds/{id}/members/{user_id}."""

    def guild(request: web.Request) -> None:
        if request.match_info["guild_id"] not in world.guild_ids:
            raise DiscordError(404, 10004, "Unknown Guild")

    async def roles(request: web.Request) -> list[Json]:
        guild(request)
        return world.roles_of(request.match_info["guild_id"])

    async def member(request: web.Request) -> Json:
        guild(request)
        found = world.members.get(request.match_info["user_id"])
        if found is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return found

    router.add_route("GET", V + "/guilds/{guild_id}/roles", roles)
    router.add_route("GET", V + "/guilds/{guild_id}/members/{user_id}", member)
