"""The fake Discord's HTTP plumbing: JSON answers, call recording, injected errors, waits.

Every REST request is recorded as a RestCall (method, route template, path, query, body,
files, headers, status, response). Answers carry Content-Type exactly `application/json`
(discord.py fails login on a charset) and consistent rate-limit headers; a handler's crash is
a 400, never a 5xx (discord.py retries those with sleeps). A 429 carries `Via` and
`retry_after`, or discord.py takes it for a Cloudflare ban.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from tests.fakes.discord_interactions import JSON_BODY
from tests.fakes.discord_limits import DiscordError
from tests.fakes.discord_rest import ACTOR, FILES
from tests.fakes.discord_spec import Contract
from tests.fakes.discord_world import Json, World

log = logging.getLogger("fake_discord")
Handler = Callable[[web.Request], Awaitable[Any]]


@dataclass
class RestCall:
    """One REST request the client made, with the fake's answer."""

    method: str
    path: str  # without /api/vN, e.g. /channels/1/messages
    route: str  # the template, e.g. /channels/{channel_id}/messages
    params: dict[str, str]
    json: Any
    files: list[str]
    headers: dict[str, str]
    status: int = 0
    response: Any = None
    at: float = field(default_factory=time.perf_counter)


class Http:
    """Mixed into FakeDiscord, which supplies the world, the tokens and the bot user."""

    world: World
    tokens: dict[str, Json]
    bot_user: Json
    ratelimit_headers: bool

    def _init_http(self) -> None:
        self.calls: list[RestCall] = []
        self.contract = Contract()  # Discord's OpenAPI spec, checked on every /api/ exchange
        self.unhandled: list[RestCall] = []
        self._injected: list[Json] = []
        self._call_change = asyncio.Condition()
        self._message_change = asyncio.Condition()

    def respond(self, data: Any, status: int = 200) -> web.Response:
        """A JSON answer; Content-Type exactly application/json, or discord.py fails login."""
        headers = {"Content-Type": "application/json"}
        if self.ratelimit_headers:  # consistent: Remaining comes with Reset-After
            headers.update(
                {
                    "X-RateLimit-Limit": "50",
                    "X-RateLimit-Remaining": "49",
                    "X-RateLimit-Reset-After": "1.000",
                    "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
                    "X-RateLimit-Bucket": "fake",
                }
            )
        if status == 204 or data is None:
            headers.pop("Content-Type")
            return web.Response(status=204, headers=headers)
        return web.Response(status=status, body=json.dumps(data).encode(), headers=headers)

    @staticmethod
    def error(status: int, code: int, message: str, errors: Json | None = None) -> web.Response:
        """Discord's error body."""
        body: Json = {"message": message, "code": code}
        if errors:
            body["errors"] = errors
        return web.Response(
            status=status,
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway":
            result: web.StreamResponse = await handler(request)
            return result
        info = request.match_info
        route = info.route.resource.canonical if info.route.resource else request.path
        route = re.sub(r"^/api/v\{version[^}]*\}", "", route)
        path = re.sub(r"^/api/v\d+", "", request.path)
        try:
            body, files = await self._read_body(request)
        except (ValueError, UnicodeDecodeError) as exc:  # a bad body is a 400, never a 500
            return self.error(400, 50109, f"The request body contains invalid JSON: {exc}")
        call = RestCall(
            request.method,
            path,
            route,
            dict(request.query),
            body,
            [name for name, _ in files],
            dict(request.headers),
        )
        self.calls.append(call)
        response = await self._answer(request, call, handler, body, files)
        call.status = response.status
        if "X-RateLimit-Bucket" in response.headers:  # one bucket per route, like Discord
            key = f"{call.method} {call.route}".encode()
            response.headers["X-RateLimit-Bucket"] = hashlib.md5(key).hexdigest()[:16]
        if (
            isinstance(response, web.Response)
            and response.body
            and response.content_type == "application/json"
        ):
            call.response = json.loads(response.body)  # type: ignore[arg-type]  # a JSON response's body is bytes
        if call.route == "/{tail}":
            self.unhandled.append(call)
        if request.path.startswith("/api/"):
            self.contract.record(request.path, call.method, call.status, body, call.response)
        async with self._call_change:
            self._call_change.notify_all()
        return response

    async def _answer(
        self,
        request: web.Request,
        call: RestCall,
        handler: Handler,
        body: Any,
        files: list[tuple[str, bytes]],
    ) -> web.StreamResponse:
        try:
            injected = self._check_injected(call)
            if injected is not None:
                return injected
            free = call.path.startswith(
                ("/interactions/", "/webhooks/", "/attachments/", "/_fake/")
            )
            auth = request.headers.get("Authorization", "")
            actor = self.tokens.get(auth[4:]) if auth.startswith("Bot ") else None
            if not free and actor is None:
                return self.error(401, 0, "401: Unauthorized")
            request[ACTOR] = actor or self.bot_user
            request[JSON_BODY] = body
            request[FILES] = files
            result = await handler(request)
        except DiscordError as exc:
            return self.error(exc.status, exc.code, exc.message, exc.errors)
        except Exception as exc:  # never a 5xx: discord.py would retry with sleeps
            log.exception("fake handler crashed")
            return self.error(400, 0, f"fake handler crashed: {exc!r}")
        if isinstance(result, web.StreamResponse):
            return result
        return self.respond(result)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        files: list[tuple[str, bytes]] = []
        if request.method in ("GET", "DELETE") or not request.can_read_body:
            return None, files
        if not request.headers.get("Content-Type", "").startswith("multipart/"):
            raw = await request.read()
            return (json.loads(raw) if raw else None), files
        payload = None
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                files.append((part.filename or part.name or "file", bytes(await part.read())))
        return payload, files

    def _check_injected(self, call: RestCall) -> web.Response | None:
        for injected in list(self._injected):
            if injected["method"] != call.method or not re.fullmatch(injected["path"], call.path):
                continue
            if injected["after"] > 0:  # let this many matching calls through first
                injected["after"] -= 1
                continue
            injected["times"] -= 1
            if injected["times"] <= 0:
                self._injected.remove(injected)
            if injected["status"] == 429:  # 'Via' or discord.py takes it for a Cloudflare ban
                retry = injected["retry_after"]
                body = {
                    "message": "You are being rate limited.",
                    "code": 0,  # Discord's error object: the spec requires it
                    "retry_after": retry,
                    "global": False,
                }
                return web.Response(
                    status=429,
                    body=json.dumps(body).encode(),
                    headers={
                        "Content-Type": "application/json",
                        "Via": "1.1 google",
                        "Retry-After": str(retry),
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(retry),
                        "X-RateLimit-Bucket": "fakebucket",
                        "X-RateLimit-Scope": "user",
                    },
                )
            return self.error(injected["status"], injected["code"], injected["message"])
        return None

    def inject_error(
        self,
        method: str,
        path_regex: str,
        status: int,
        *,
        times: int = 1,
        code: int = 0,
        message: str = "injected",
        retry_after: float = 0.1,
        after: int = 0,
    ) -> None:
        """After `after` matching calls pass, the next `times` fail with `status`."""
        self._injected.append(
            {
                "method": method,
                "path": path_regex,
                "status": status,
                "times": times,
                "code": code,
                "message": message,
                "retry_after": retry_after,
                "after": after,
            }
        )

    async def wait_for_call(
        self,
        method: str,
        route: str,
        predicate: Callable[[RestCall], bool] = lambda c: True,
        *,
        timeout: float = 5.0,
        start: int = 0,
    ) -> RestCall:
        """The first answered call to `route` (a template) from index `start` that matches."""

        def find() -> RestCall | None:
            return next(
                (
                    c
                    for c in self.calls[start:]
                    if c.method == method and c.route == route and c.status and predicate(c)
                ),
                None,
            )

        async def _wait() -> RestCall:
            async with self._call_change:
                await self._call_change.wait_for(lambda: find() is not None)
            found = find()
            assert found is not None
            return found

        return await asyncio.wait_for(_wait(), timeout)

    def calls_to(self, method: str, route: str) -> list[RestCall]:
        """Every call to a route template."""
        return [c for c in self.calls if c.method == method and c.route == route]

    async def wait_for_message(
        self, predicate: Callable[[Json], bool], *, timeout: float = 5.0
    ) -> Json:
        """The first stored message (oldest first) that matches, waiting for it to arrive."""

        def find() -> Json | None:
            ordered = sorted(self.world.messages.values(), key=lambda m: int(m["id"]))
            return next((m for m in ordered if predicate(m)), None)

        async def _wait() -> Json:
            async with self._message_change:
                await self._message_change.wait_for(lambda: find() is not None)
            found = find()
            assert found is not None
            return found

        return await asyncio.wait_for(_wait(), timeout)

    async def message_stored(self) -> None:
        """Wake whoever waits in wait_for_message."""
        async with self._message_change:
            self._message_change.notify_all()
