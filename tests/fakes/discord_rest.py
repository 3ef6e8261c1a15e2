"""The fake Discord's REST routes and the people's actions (posting as a user, with files).

Messages: create (limits enforced, files stored as attachments served from the fake,
`nonce` + `enforce_nonce` deduplicated), history (before/after/around/limit), get, edit (by
the author only), delete. Threads from a message, pins (the route discord.py 2.7 uses and
the older one) with Discord's "pinned a message" system message, typing.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakes.discord_guild import add_guild_routes, application_flags
from tests.fakes.discord_interactions import FILES, JSON_BODY
from tests.fakes.discord_limits import FLAG_IS_COMPONENTS_V2, DiscordError, validate_message
from tests.fakes.discord_polls import Polls, poll_payload
from tests.fakes.discord_world import (
    FLAG_HAS_THREAD,
    THREAD_TYPES,
    Json,
    World,
    answered_components,
    now_iso,
)

ACTOR: web.RequestKey[Json] = web.RequestKey("actor", dict)
MESSAGE_TYPE_PIN = 6
MESSAGE_TYPE_REPLY = 19

V = r"/api/v{version:\d+}"


class Rest:
    """Mixed into FakeDiscord, which supplies the world, dispatch and the JSON answers."""

    world: World
    bot_user: Json
    owner: Json
    nonce_window_s: float
    gateway_url: str
    h_interaction_callback: Any
    h_followup: Any
    h_webhook_get: Any
    h_webhook_edit: Any
    h_webhook_delete: Any
    approved_intents: int | None
    polls: Polls

    if TYPE_CHECKING:  # supplied by FakeDiscord and its other parts

        async def dispatch(
            self, event: str, data: Json, *, only_user: Json | None = None
        ) -> None: ...

        async def message_stored(self) -> None: ...

        def respond(self, data: Any, status: int = 200) -> web.Response: ...

    def _init_rest(self) -> None:
        self._nonces: dict[tuple[str, str], tuple[str, float]] = {}

    def add_rest_routes(self, router: web.UrlDispatcher) -> None:
        """Every REST route the product uses."""
        channel = V + "/channels/{channel_id}"
        message = channel + "/messages/{message_id}"
        webhook = V + "/webhooks/{application_id}/{token}"
        for method, path, handler in (
            ("GET", V + "/gateway", self.h_gateway),
            ("GET", V + "/gateway/bot", self.h_gateway),
            ("GET", V + "/users/@me", self.h_me),
            ("GET", V + "/oauth2/applications/@me", self.h_app),
            ("GET", V + "/applications/@me", self.h_app),
            ("GET", channel, self.h_get_channel),
            ("PATCH", channel, self.h_edit_channel),
            ("POST", channel + "/messages", self.h_create_message),
            ("GET", channel + "/messages", self.h_history),
            ("GET", channel + "/messages/pins", self.h_list_pins),
            ("PUT", channel + "/messages/pins/{message_id}", self.h_pin),
            ("DELETE", channel + "/messages/pins/{message_id}", self.h_unpin),
            ("PUT", channel + "/pins/{message_id}", self.h_pin),
            ("DELETE", channel + "/pins/{message_id}", self.h_unpin),
            ("GET", message, self.h_get_message),
            ("PATCH", message, self.h_edit_message),
            ("DELETE", message, self.h_delete_message),
            ("POST", message + "/threads", self.h_thread_from_message),
            ("POST", channel + "/typing", self.h_typing),
            (
                "POST",
                V + "/interactions/{interaction_id}/{token}/callback",
                self.h_interaction_callback,
            ),
            ("POST", webhook, self.h_followup),
            ("GET", webhook + "/messages/{message_id}", self.h_webhook_get),
            ("PATCH", webhook + "/messages/{message_id}", self.h_webhook_edit),
            ("DELETE", webhook + "/messages/{message_id}", self.h_webhook_delete),
            ("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self.h_attachment),
        ):
            router.add_route(method, path, handler)
        add_guild_routes(router, self.world)

    # ---- lookups -----------------------------------------------------------------------
    def channel(self, channel_id: str) -> Json:
        """A channel or thread, or 10003."""
        found = self.world.channels.get(channel_id)
        if found is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return found

    def message(self, channel_id: str, message_id: str) -> Json:
        """A message of that channel, or 10008."""
        found = self.world.messages.get(message_id)
        if found is None or found["channel_id"] != channel_id:
            raise DiscordError(404, 10008, "Unknown Message")
        return found

    # ---- handlers ----------------------------------------------------------------------
    async def h_unknown(self, request: web.Request) -> web.Response:
        """404 JSON for anything not modelled (recorded in `unhandled`)."""
        raise DiscordError(404, 0, f"fake_discord: unhandled {request.method} {request.path}")

    async def h_gateway(self, request: web.Request) -> Json:
        """GET /gateway and /gateway/bot."""
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def h_me(self, request: web.Request) -> Json:
        """GET /users/@me: whoever the token belongs to, with the fields only its owner sees."""
        return {**request[ACTOR], "mfa_enabled": False, "locale": "en-US", "verified": True}

    async def h_app(self, request: web.Request) -> Json:
        """GET /oauth2/applications/@me (no interactions endpoint: events come by gateway)."""
        actor = request[ACTOR]
        return {
            "id": actor["id"],
            "name": actor["username"],
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner,
            "verify_key": "00" * 32,
            "flags": application_flags(self.approved_intents),
            "flags_new": str(application_flags(self.approved_intents)),
            "type": None,
            "redirect_uris": [],
            "role_connections_verification_url": None,
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "team": None,
            "summary": "",
            "rpc_origins": [],
            "bot": actor,
            "tags": [],
            "interactions_endpoint_url": None,
        }

    async def h_get_channel(self, request: web.Request) -> Json:
        """GET /channels/{id}."""
        return self.channel(request.match_info["channel_id"])

    async def h_create_message(self, request: web.Request) -> Json:
        """POST /channels/{id}/messages."""
        channel_id = request.match_info["channel_id"]
        channel = self.channel(channel_id)
        body: Json = request[JSON_BODY] or {}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            seen = self._nonces.get((channel_id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < self.nonce_window_s:
                return self.world.messages[seen[0]]  # Discord returns the earlier message
        files = request[FILES]
        validate_message(body, has_files=bool(files))
        poll = poll_payload(body["poll"], dt.datetime.now(dt.UTC)) if body.get("poll") else None
        names = [a.get("filename") for a in body.get("attachments") or []]
        attachments = [
            self.world.attachment(
                channel_id, names[i] if i < len(names) and names[i] else name, data
            )
            for i, (name, data) in enumerate(files)
        ]
        reference = body.get("message_reference")
        if reference:
            reference = {
                "message_id": str(reference["message_id"]),
                "channel_id": channel_id,
                "guild_id": channel.get("guild_id"),
                "type": 0,
            }
        message = self.world.message_payload(
            channel_id,
            request[ACTOR],
            body,
            attachments=attachments,
            message_reference=reference,
            mtype=MESSAGE_TYPE_REPLY if reference else 0,
            nonce=str(nonce) if nonce is not None else None,
            poll=poll,
        )
        if nonce is not None:
            self._nonces[(channel_id, str(nonce))] = (message["id"], time.monotonic())
        await self.store_and_echo(message)
        return message

    async def h_history(self, request: web.Request) -> list[Json]:
        """GET /channels/{id}/messages?before|after|around&limit (newest first)."""
        channel_id = request.match_info["channel_id"]
        self.channel(channel_id)
        return self.world.history(channel_id, dict(request.query))

    async def h_get_message(self, request: web.Request) -> Json:
        """GET /channels/{id}/messages/{id} (a poll past its expiry is finalized first)."""
        await self.polls.refresh(request.match_info["message_id"])
        return self.message(request.match_info["channel_id"], request.match_info["message_id"])

    async def h_edit_message(self, request: web.Request) -> Json:
        """PATCH /channels/{id}/messages/{id}: only the author may edit."""
        message = self.message(request.match_info["channel_id"], request.match_info["message_id"])
        if message["author"]["id"] != request[ACTOR]["id"]:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        await self.apply_edit(message, request[JSON_BODY] or {})
        return message

    async def h_delete_message(self, request: web.Request) -> None:
        """DELETE /channels/{id}/messages/{id}."""
        message = self.message(request.match_info["channel_id"], request.match_info["message_id"])
        self.world.deleted[message["id"]] = self.world.messages.pop(message["id"])
        await self.dispatch(
            "MESSAGE_DELETE",
            {
                "id": message["id"],
                "channel_id": message["channel_id"],
                "guild_id": self.world.guild_id,
            },
        )

    # ---- storage -----------------------------------------------------------------------
    async def store_and_echo(self, message: Json) -> None:
        """Store a message and send MESSAGE_CREATE to every client (its author's too)."""
        self.world.messages[message["id"]] = message
        channel = self.world.channels.get(message["channel_id"])
        if channel is not None:
            channel["last_message_id"] = message["id"]
            if channel["type"] in THREAD_TYPES:
                channel["message_count"] += 1
                channel["total_message_sent"] += 1
        payload = dict(message)
        member = self.world.partial_member(message["author"])
        if member is not None and "webhook_id" not in message:
            payload["member"] = member
        await self.dispatch("MESSAGE_CREATE", payload)
        await self.message_stored()

    async def apply_edit(self, message: Json, body: Json) -> None:
        """Change content/embeds/components/flags within the limits; MESSAGE_UPDATE."""
        merged = {key: body.get(key, message[key]) for key in ("content", "embeds", "components")}
        merged["flags"] = body.get("flags", message["flags"])
        layout = message["flags"] & FLAG_IS_COMPONENTS_V2
        if layout and not int(merged["flags"] or 0) & FLAG_IS_COMPONENTS_V2:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "flags": {
                        "_errors": [
                            {
                                "code": "MESSAGE_FLAGS_CANNOT_REMOVE_COMPONENTS_V2",
                                "message": "IS_COMPONENTS_V2 cannot be removed",
                            }
                        ]
                    }
                },
            )
        validate_message(merged, has_files=bool(message["attachments"]))
        for key in ("content", "embeds", "components"):
            if key in body:
                empty: Any = "" if key == "content" else []
                message[key] = body[key] if body[key] is not None else empty
        if "components" in body:
            message["components"] = answered_components(message["components"])
        if body.get("flags") is not None:
            message["flags"] = (message["flags"] & FLAG_HAS_THREAD) | int(body["flags"])
        message["edited_timestamp"] = now_iso()
        if "allowed_mentions" in body:
            self.world.allowed_mentions[message["id"]] = body["allowed_mentions"]
        await self.dispatch("MESSAGE_UPDATE", message)

    # ---- what people do ----------------------------------------------------------------
    async def user_message(
        self,
        author: Json,
        content: str = "",
        *,
        channel_id: str | None = None,
        attachments: list[tuple[str, bytes | str]] | None = None,
        reply_to: str | None = None,
        webhook_id: str | None = None,
    ) -> Json:
        """`author` posts (a person, another bot, a webhook); every client gets MESSAGE_CREATE."""
        target = channel_id or self.text_channel_id
        channel = self.channel(target)
        stored = [
            self.world.attachment(target, name, data.encode() if isinstance(data, str) else data)
            for name, data in attachments or []
        ]
        reference = None
        if reply_to is not None:
            reference = {
                "message_id": reply_to,
                "channel_id": target,
                "guild_id": channel.get("guild_id"),
                "type": 0,
            }
        message = self.world.message_payload(
            target,
            author,
            {"content": content},
            attachments=stored,
            webhook_id=webhook_id,
            message_reference=reference,
            mtype=MESSAGE_TYPE_REPLY if reference else 0,
        )
        await self.store_and_echo(message)
        return message

    @property
    def text_channel_id(self) -> str:
        """The default channel for user_message."""
        return next(iter(self.world.channels))
