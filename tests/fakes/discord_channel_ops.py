"""The fake Discord's channel operations: threads from a message (and their edits), pins,
typing, the 'CDN'.

A thread made from a message has the message's id; a second one is 160004. Pinning sets
`pinned`, sends CHANNEL_PINS_UPDATE and posts Discord's "pinned a message" system message
(type 6), both on the route discord.py 2.7 uses and on the older one. Typing is recorded in
`world.typing`. Attachments are served at their url with no token, like Discord's CDN.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.fakes.discord_interactions import JSON_BODY
from tests.fakes.discord_limits import DiscordError
from tests.fakes.discord_rest import ACTOR, MESSAGE_TYPE_PIN
from tests.fakes.discord_world import FLAG_HAS_THREAD, Json, World, now_iso


class ChannelOps:
    """Mixed into FakeDiscord, which supplies lookups, dispatch and message storage."""

    world: World

    if TYPE_CHECKING:  # supplied by FakeDiscord and its other parts

        def channel(self, channel_id: str) -> Json: ...

        def message(self, channel_id: str, message_id: str) -> Json: ...

        def respond(self, data: object, status: int = 200) -> web.Response: ...

        async def dispatch(
            self, event: str, data: Json, *, only_user: Json | None = None
        ) -> None: ...

        async def store_and_echo(self, message: Json) -> None: ...

    async def h_typing(self, request: web.Request) -> None:
        """POST /channels/{id}/typing: recorded in world.typing."""
        channel_id = request.match_info["channel_id"]
        self.channel(channel_id)
        self.world.typing.append((channel_id, request[ACTOR]["id"]))

    async def h_thread_from_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages/{id}/threads: the thread gets the message's id."""
        channel_id, message_id = request.match_info["channel_id"], request.match_info["message_id"]
        parent = self.channel(channel_id)
        message = self.message(channel_id, message_id)
        if message.get("thread") or message["flags"] & FLAG_HAS_THREAD:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        body: Json = request[JSON_BODY] or {}
        if not 1 <= len(body.get("name") or "") <= 100:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "name": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_BAD_LENGTH",
                                "message": "Must be between 1 and 100.",
                            }
                        ]
                    }
                },
            )
        thread = self.world.thread_payload(parent, message_id, request[ACTOR]["id"], body)
        self.world.channels[message_id] = thread
        message["flags"] |= FLAG_HAS_THREAD
        message["thread"] = thread
        await self.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        await self.dispatch("MESSAGE_UPDATE", message)
        return self.respond(thread, 201)

    async def h_edit_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id} of a thread: archived, locked and name; THREAD_UPDATE."""
        thread = self.channel(request.match_info["channel_id"])
        body: Json = request[JSON_BODY] or {}
        if "thread_metadata" not in thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        for key in ("archived", "locked"):
            if key in body:
                thread["thread_metadata"][key] = bool(body[key])
        thread["name"] = body.get("name", thread["name"])
        await self.dispatch("THREAD_UPDATE", thread)
        return self.respond(thread)

    async def h_pin(self, request: web.Request) -> None:
        """PUT .../pins/{id}: pinned, CHANNEL_PINS_UPDATE, and Discord's system message."""
        channel_id, message_id = request.match_info["channel_id"], request.match_info["message_id"]
        message = self.message(channel_id, message_id)
        pins = self.world.pins.setdefault(channel_id, [])
        if message["pinned"]:
            return
        message["pinned"] = True
        pins.append((message_id, now_iso()))
        await self.dispatch(
            "CHANNEL_PINS_UPDATE",
            {
                "channel_id": channel_id,
                "guild_id": self.world.guild_id,
                "last_pin_timestamp": pins[-1][1],
            },
        )
        notice = self.world.message_payload(
            channel_id,
            request[ACTOR],
            {},
            mtype=MESSAGE_TYPE_PIN,
            message_reference={
                "message_id": message_id,
                "channel_id": channel_id,
                "guild_id": self.world.guild_id,
                "type": 0,
            },
        )
        await self.store_and_echo(notice)

    async def h_unpin(self, request: web.Request) -> None:
        """DELETE .../pins/{id}."""
        channel_id, message_id = request.match_info["channel_id"], request.match_info["message_id"]
        message = self.message(channel_id, message_id)
        message["pinned"] = False
        pins = self.world.pins.get(channel_id, [])
        self.world.pins[channel_id] = [p for p in pins if p[0] != message_id]

    async def h_list_pins(self, request: web.Request) -> Json:
        """GET /channels/{id}/messages/pins: newest pin first."""
        channel_id = request.match_info["channel_id"]
        self.channel(channel_id)
        pins = reversed(self.world.pins.get(channel_id, []))
        items = [
            {"pinned_at": at, "message": self.world.messages[mid]}
            for mid, at in pins
            if mid in self.world.messages
        ]
        return {"items": items, "has_more": False}

    async def h_attachment(self, request: web.Request) -> web.Response:
        """The 'CDN': an attachment's bytes (no token needed, like Discord's signed urls)."""
        data = self.world.files.get(request.match_info["attachment_id"])
        if data is None:
            return web.Response(status=404, body=b"not found")
        return web.Response(status=200, body=data, content_type="application/octet-stream")
