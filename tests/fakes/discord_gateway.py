"""The fake Discord's gateway: HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats, RESUME.

Frames are zlib-stream compressed when the client asks for it. Intents filter what a session
receives, and message content is blanked for a session without the message-content intent
unless the message is its own or mentions it, as Discord does.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from tests.fakes.discord_world import Json, World

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY = 0, 1, 2
OP_RESUME, OP_REQUEST_MEMBERS, OP_HELLO, OP_HEARTBEAT_ACK = 6, 8, 10, 11

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT


class GatewaySession:
    """One connected client."""

    def __init__(
        self, ws: web.WebSocketResponse, query: dict[str, str], session_id: str, *, zlib_ok: bool
    ) -> None:
        self.ws = ws
        self.query = query
        self.seq = 0
        self.intents = 0
        self.identified = asyncio.Event()
        self.session_id = session_id
        self.user: Json | None = None
        self.received: list[Json] = []
        compress = query.get("compress") == "zlib-stream" and zlib_ok
        self._zlib = zlib.compressobj() if compress else None

    @property
    def live(self) -> bool:
        """Connected and identified."""
        return not self.ws.closed and self.identified.is_set() and self.user is not None

    async def send(self, payload: Json) -> None:
        """One frame (zlib-stream: one shared context, each payload ends with a sync flush)."""
        text = json.dumps(payload, separators=(",", ":"))
        if self._zlib is None:
            await self.ws.send_str(text)
            return
        data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        await self.ws.send_bytes(data)

    async def dispatch(self, event: str, data: Json) -> None:
        """A DISPATCH with the next sequence number."""
        self.seq += 1
        await self.send({"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data})


class Gateway:
    """The WebSocket side; mixed into FakeDiscord, which supplies the world and the tokens."""

    world: World
    tokens: dict[str, Json]
    bot_user: Json
    owner: Json
    approved_intents: int | None
    use_zlib: bool
    gateway_url: str

    def _init_gateway(self) -> None:
        self.sessions: list[GatewaySession] = []
        self.gateway_log: list[Json] = []  # every frame a client sent
        self._session_change = asyncio.Condition()

    async def _ws_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        session = GatewaySession(
            ws, dict(request.query), self.world.ids.next(), zlib_ok=self.use_zlib
        )
        self.sessions.append(session)
        await session.send({"op": OP_HELLO, "d": {"heartbeat_interval": 41250}})
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            self.gateway_log.append(message)
            session.received.append(message)
            await self._on_frame(session, message.get("op"), message.get("d"))
        await self._notify_sessions()
        return ws

    async def _on_frame(self, session: GatewaySession, op: Any, data: Any) -> None:
        if op == OP_HEARTBEAT:
            await session.send({"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(session, data)
        elif op == OP_RESUME:
            await session.dispatch("RESUMED", {})
            session.identified.set()
            await self._notify_sessions()
        elif op == OP_REQUEST_MEMBERS:
            await session.dispatch(
                "GUILD_MEMBERS_CHUNK",
                {
                    "guild_id": self.world.guild_id,
                    "members": list(self.world.members.values()),
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "nonce": data.get("nonce"),
                    "not_found": [],
                    "presences": [],
                },
            )

    async def _identify(self, session: GatewaySession, data: Json) -> None:
        session.user = self.tokens.get(data.get("token", ""))
        if session.user is None:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        session.intents = int(data.get("intents", 0))
        privileged = session.intents & PRIVILEGED_INTENTS
        if self.approved_intents is not None and privileged & ~self.approved_intents:
            await session.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        ready = {
            "v": 10,
            "user": session.user,
            "session_id": session.session_id,
            "guilds": [{"id": guild, "unavailable": True} for guild in self.world.guild_ids],
            "resume_gateway_url": self.gateway_url,  # a reconnect must stay on loopback
            "application": {"id": session.user["id"], "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        if session.intents & INTENT_GUILDS:
            for guild in self.world.guild_ids:
                payload = self.world.guild_payload(self.owner["id"], guild)
                await session.dispatch("GUILD_CREATE", payload)
        session.identified.set()
        await self._notify_sessions()

    async def _notify_sessions(self) -> None:
        async with self._session_change:
            self._session_change.notify_all()

    def live_sessions(self, user: Json | None = None) -> list[GatewaySession]:
        """Identified, open sessions (of one user, if given)."""
        return [
            s
            for s in self.sessions
            if s.live and s.user is not None and (user is None or s.user["id"] == user["id"])
        ]

    async def wait_connected(
        self, user: Json | None = None, timeout: float = 10.0
    ) -> GatewaySession:
        """The newest live session of `user` (default: the bot), waiting for it to identify."""
        who = user or self.bot_user

        async def _wait() -> GatewaySession:
            async with self._session_change:
                await self._session_change.wait_for(lambda: bool(self.live_sessions(who)))
            return self.live_sessions(who)[-1]

        return await asyncio.wait_for(_wait(), timeout)

    async def dispatch(self, event: str, data: Json, *, only_user: Json | None = None) -> None:
        """Send an event to every connected client in the guild, as Discord does."""
        for session in self.live_sessions(only_user):
            if (
                event.startswith("MESSAGE_")
                and "guild_id" in data
                and not session.intents & INTENT_GUILD_MESSAGES
            ):
                continue
            payload = data
            if (
                event in ("MESSAGE_CREATE", "MESSAGE_UPDATE")
                and not session.intents & INTENT_MESSAGE_CONTENT
            ):
                assert session.user is not None
                mine = data.get("author", {}).get("id") == session.user["id"]
                mentioned = any(u["id"] == session.user["id"] for u in data.get("mentions", []))
                if not mine and not mentioned:
                    payload = dict(data, content="", embeds=[], attachments=[], components=[])
            try:
                await session.dispatch(event, payload)
            except (ConnectionError, aiohttp.ClientConnectionResetError):
                # A client killed mid-send (kill -9 in the end-to-end tests) must not keep the
                # event from the others, nor turn the REST call that caused it into a 500.
                continue
