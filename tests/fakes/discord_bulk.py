"""The fake Discord's bulk delete: POST /channels/{id}/messages/bulk-delete.

As Discord: 2 to 100 message ids of that channel, each deleted and announced in one
MESSAGE_DELETE_BULK event; an unknown id fails the whole call (10008).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.fakes.discord_interactions import JSON_BODY
from tests.fakes.discord_limits import DiscordError

if TYPE_CHECKING:
    from tests.fakes.fake_discord import FakeDiscord

V = "/api/v10"


def add_bulk_delete_route(router: web.UrlDispatcher, fake: FakeDiscord) -> None:
    """Register the route on the fake's router."""

    async def bulk_delete(request: web.Request) -> None:
        channel_id = request.match_info["channel_id"]
        fake.channel(channel_id)
        ids = [str(mid) for mid in (request[JSON_BODY] or {}).get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise DiscordError(400, 50016, "Provide at least 2 and fewer than 100 messages")
        for message_id in ids:
            fake.message(channel_id, message_id)  # 10008 before anything is deleted
        for message_id in ids:
            fake.world.deleted[message_id] = fake.world.messages.pop(message_id)
        await fake.dispatch(
            "MESSAGE_DELETE_BULK",
            {"ids": ids, "channel_id": channel_id, "guild_id": fake.world.guild_id},
        )

    router.add_route("POST", V + "/channels/{channel_id}/messages/bulk-delete", bulk_delete)
