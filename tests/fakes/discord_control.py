"""A small control API for the standalone fake (`python -m tests.fakes.fake_discord`).

Another process (an end-to-end suite, a person with curl) acts as the people through it:

    POST /_fake/users      {"name": "alice", "bot": false, "roles": ["<role id>"]}
                           -> the user (and "token" for a bot, to log a second client in)
    POST /_fake/roles      {"name": "approver"} -> the role
    POST /_fake/channels   {"name": "relay"} -> the channel
    POST /_fake/messages   {"author_id": "...", "content": "...", "channel_id": "...",
                            "attachments": [{"filename": "a.md", "text": "..."}]}
    POST /_fake/click      {"message_id": "...", "custom_id": "...", "user_id": "...",
                            "values": ["..."] (a select menu's pick)}
                           -> {"interaction_id": ..., "callback_type": int | null}
    GET  /_fake/messages?channel_id=...  -> messages, oldest first
    GET  /_fake/calls      -> every REST call: method, route, path, status
    GET  /_fake/contract   -> {"checked": n, "violations": [...]}: the exchanges under /api/
                              that Discord's OpenAPI spec forbids (see discord_spec.py)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.fakes.discord_interactions import JSON_BODY
from tests.fakes.discord_world import Json

if TYPE_CHECKING:
    from tests.fakes.fake_discord import FakeDiscord


def add_control_routes(router: web.UrlDispatcher, fake: FakeDiscord) -> None:
    """Register /_fake/* on the fake's router."""

    async def users(request: web.Request) -> Json:
        body = request[JSON_BODY]
        if body.get("bot"):
            user, token = fake.add_bot(body["name"])
            return dict(user, token=token)
        return fake.add_user(body["name"], roles=body.get("roles"))

    async def roles(request: web.Request) -> Json:
        return fake.world.add_role(request[JSON_BODY]["name"])

    async def channels(request: web.Request) -> Json:
        channel = fake.world.add_text_channel(request[JSON_BODY]["name"])
        await fake.dispatch("CHANNEL_CREATE", channel)
        return channel

    async def post_message(request: web.Request) -> Json:
        body = request[JSON_BODY]
        files: list[tuple[str, bytes | str]] = [
            (item["filename"], item["text"]) for item in body.get("attachments") or []
        ]
        return await fake.user_message(
            fake.world.users[body["author_id"]],
            body.get("content", ""),
            channel_id=body.get("channel_id"),
            attachments=files,
        )

    async def click(request: web.Request) -> Json:
        body = request[JSON_BODY]
        record = await fake.click(
            body["message_id"],
            body["custom_id"],
            fake.world.users[body["user_id"]],
            body.get("values"),
        )
        try:
            kind: int | None = await fake.wait_ack(record)
        except TimeoutError:
            kind = None
        return {"interaction_id": record.id, "callback_type": kind}

    async def list_messages(request: web.Request) -> list[Json]:
        channel_id = request.query.get("channel_id", fake.text_channel["id"])
        return fake.messages_in(channel_id)

    async def calls(request: web.Request) -> list[Json]:
        return [
            {"method": c.method, "route": c.route, "path": c.path, "status": c.status}
            for c in fake.calls
            if not c.path.startswith("/_fake/")
        ]

    async def contract(request: web.Request) -> Json:
        found = fake.contract.unexpected()
        return {"checked": fake.contract.checked, "violations": [str(v) for v in found]}

    for method, path, handler in (
        ("POST", "/_fake/users", users),
        ("POST", "/_fake/roles", roles),
        ("POST", "/_fake/channels", channels),
        ("POST", "/_fake/messages", post_message),
        ("POST", "/_fake/click", click),
        ("GET", "/_fake/messages", list_messages),
        ("GET", "/_fake/calls", calls),
        ("GET", "/_fake/contract", contract),
    ):
        router.add_route(method, path, handler)
