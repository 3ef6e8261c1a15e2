"""A loopback fake Wiki.js 2.5: GraphQL over aiohttp on 127.0.0.1.

Every incoming operation is parsed and validated against the upstream schema vendored in
`wikijs_schema/` (invalid ones get HTTP 400 and are recorded in `invalid`), then executed by
graphql-core with resolvers that model what a real Wiki.js v2.5.314 does (../notes/wikijs.md):
6002 on a duplicate create, 6003 as an `errors` entry, an update without `isPublished`
unpublishing the page, omitted scripts wiped, HTTP 500 when the API is disabled or the key is
revoked, Guest (Forbidden / 6013) for an unknown key. A test can take it down (500s, or closed
port) and bring it back, and edit a page "as a person". Assets (folders, `POST /u`, and the
files served at their paths) are in fake_wikijs_assets.
"""

from __future__ import annotations

import functools
import inspect
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiohttp import web
from graphql import (
    DocumentNode,
    FieldNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    build_schema,
    execute,
    parse,
    validate,
    validate_schema,
)

from tests.fakes.fake_wikijs_assets import FakeAssets, error_page, read_upload
from tests.fakes.fake_wikijs_resolvers import Root

SCHEMA_DIR = Path(__file__).parent / "wikijs_schema"
# Generated at run time by graphql-rate-limit-directive on the server, so in no schema file.
RATE_LIMIT_LINE = (
    "directive @rateLimit(limit: Int! = 60, duration: Int! = 60) on OBJECT | FIELD_DEFINITION"
)
FULL_KEY = "full-access-key"
REVOKED_KEY = "revoked-key"
DISABLED = "API is disabled. You must enable it from the Administration Area first."
REVOKED = "API Key is invalid or was revoked."
MAX_BODY = 5 * 1024 * 1024


@functools.cache
def wikijs_schema() -> GraphQLSchema:
    """The upstream schema, built the way the server builds it."""
    files = sorted(SCHEMA_DIR.glob("*.graphql"))
    sdl = "\n".join(path.read_text(encoding="utf-8") for path in files)
    schema = build_schema(RATE_LIMIT_LINE + "\n" + sdl)
    problems = validate_schema(schema)
    if problems:
        raise RuntimeError(f"vendored Wiki.js schema is invalid: {problems[0]}")
    return schema


@dataclass
class FakePage:
    """One stored page."""

    id: int
    path: str
    locale: str
    title: str
    description: str
    content: str
    editor: str
    is_published: bool
    is_private: bool
    tags: list[str]
    script_css: str
    script_js: str
    created_at: str
    updated_at: str
    versions: int = 1  # every create, update or person's edit adds one


@dataclass(frozen=True)
class Recorded:
    """One request as the fake saw it."""

    kind: str  # "query", "mutation", "upload", "get", or "" when unparsable
    fields: tuple[str, ...]  # e.g. ("pages.create",); ("u",) for an upload; a get's path
    variables: dict[str, Any]
    status: int


@dataclass
class FakeWikiJs:
    """The fake server; `await start()` gives its URL."""

    api_enabled: bool = True
    failing: bool = False  # answer everything with HTTP 500 (a Wiki.js whose database is down)
    valid_keys: set[str] = field(default_factory=lambda: {FULL_KEY})
    revoked_keys: set[str] = field(default_factory=lambda: {REVOKED_KEY})
    pages: dict[int, FakePage] = field(default_factory=dict)
    assets: FakeAssets = field(default_factory=FakeAssets)
    searches: list[str] = field(default_factory=list)  # the queries of pages.search
    requests: list[Recorded] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    port: int = 0
    _runner: web.AppRunner | None = None
    _next_id: int = 1
    _clock: datetime = field(default_factory=lambda: datetime(2026, 5, 1, tzinfo=UTC))

    @property
    def url(self) -> str:
        """The base URL (WIKIJS_URL)."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> str:
        """Listen on 127.0.0.1 (the same port again after `refuse_connections`)."""
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_post("/graphql", self._graphql)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_post("/u", self._upload)
        app.router.add_get("/{path:.*}", self._serve)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self.port = self._runner.addresses[0][1]
        return self.url

    async def stop(self) -> None:
        """Close the port and every open connection."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def refuse_connections(self) -> None:
        """Go away entirely: connecting now fails with ECONNREFUSED."""
        await self.stop()

    async def accept_connections(self) -> None:
        """Come back on the same port."""
        if self._runner is None:
            await self.start()

    def page_at(self, path: str, locale: str = "en") -> FakePage | None:
        """The page stored at exactly this path."""
        return next((p for p in self.pages.values() if (p.path, p.locale) == (path, locale)), None)

    def edit_as_person(self, path: str, content: str) -> None:
        """Change a page the way a person in the editor would."""
        page = self.page_at(path)
        if page is None:
            raise KeyError(path)
        page.content = content
        page.versions += 1
        page.updated_at = self.tick()

    def writes(self) -> list[Recorded]:
        """The page mutations received (create and update)."""
        wanted = {"pages.create", "pages.update"}
        return [r for r in self.requests if r.kind == "mutation" and wanted & set(r.fields)]

    def uploads(self) -> list[Recorded]:
        """The requests to `POST /u`."""
        return [r for r in self.requests if r.kind == "upload"]

    def tick(self) -> str:
        """The next updatedAt: one second later than the last."""
        self._clock += timedelta(seconds=1)
        return self._clock.isoformat().replace("+00:00", "Z")

    async def _healthz(self, _request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    async def _graphql(self, request: web.Request) -> web.Response:
        if self.failing:
            self.requests.append(Recorded("", (), {}, 500))
            return _errors(500, "connect ECONNREFUSED 127.0.0.1:5432")
        try:
            body = json.loads(await request.text())
            document = parse(body["query"])
        except (ValueError, KeyError, TypeError, GraphQLError) as exc:
            self.invalid.append(f"unparsable request: {exc}")
            self.requests.append(Recorded("", (), {}, 400))
            return _errors(400, f"Syntax Error: {exc}")
        variables = body.get("variables") or {}
        kind, fields = _describe(document)
        user = self._authenticate(request.headers.get("Authorization", ""))
        if isinstance(user, web.Response):
            self.requests.append(Recorded(kind, fields, variables, user.status))
            return user
        problems = validate(wikijs_schema(), document)
        if problems:
            self.invalid += [p.message for p in problems]
            self.requests.append(Recorded(kind, fields, variables, 400))
            return _errors(400, problems[0].message)
        result = execute(
            wikijs_schema(),
            document,
            root_value=Root(self),
            context_value={"user": user},
            variable_values=variables,
        )
        if inspect.isawaitable(result):
            result = await result
        if result.data is None and result.errors:  # variables that do not fit their types
            self.invalid += [e.message for e in result.errors]
            self.requests.append(Recorded(kind, fields, variables, 400))
            return _errors(400, result.errors[0].message)
        self.requests.append(Recorded(kind, fields, variables, 200))
        payload: dict[str, Any] = {"data": result.data}
        if result.errors:
            payload["errors"] = [error.formatted for error in result.errors]
        return web.json_response(payload)

    async def _upload(self, request: web.Request) -> web.Response:
        upload = await read_upload(request, self.assets.max_file_size)  # multer reads it all
        user, refusal = self._user(request.headers.get("Authorization", ""))
        if refusal:  # outside /graphql: the HTML error page
            response = error_page(500, refusal)
        elif self.failing or self.assets.failing_uploads > 0:
            self.assets.failing_uploads = max(0, self.assets.failing_uploads - 1)
            response = error_page(500, "connect ECONNREFUSED 127.0.0.1:5432")
        else:
            response = self.assets.upload(upload, user)
        seen = {"folder": upload.fields.get("mediaUpload"), "files": [f[0] for f in upload.files]}
        self.requests.append(Recorded("upload", ("u",), seen, response.status))
        return response

    async def _serve(self, request: web.Request) -> web.Response:
        _user, refusal = self._user(request.headers.get("Authorization", ""))
        response = error_page(500, refusal) if refusal else self.assets.serve(request.path)
        self.requests.append(Recorded("get", (request.path,), {}, response.status))
        return response

    def _authenticate(self, header: str) -> str | web.Response:
        user, refusal = self._user(header)
        return _errors(500, refusal) if refusal else user

    def _user(self, header: str) -> tuple[str, str]:
        """("admin" | "guest", "") or ("", why Wiki.js answers HTTP 500): a well-formed API
        key is checked; anything else silently becomes Guest."""
        token = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
        if token not in self.valid_keys | self.revoked_keys:
            return "guest", ""
        if not self.api_enabled:
            return "", DISABLED
        if token in self.revoked_keys:
            return "", REVOKED
        return "admin", ""

    def store(self, **values: Any) -> FakePage:
        """Add a page (what a successful create does)."""
        now = self.tick()
        page = FakePage(id=self._next_id, created_at=now, updated_at=now, **values)
        self.pages[page.id] = page
        self._next_id += 1
        return page


def _errors(status: int, message: str) -> web.Response:
    return web.json_response({"data": {}, "errors": [{"message": message}]}, status=status)


def _describe(document: DocumentNode) -> tuple[str, tuple[str, ...]]:
    """("query" | "mutation", ("pages.create", ...)) of the first operation."""
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            names = []
            for top in definition.selection_set.selections:
                if not isinstance(top, FieldNode):
                    continue
                subs = top.selection_set.selections if top.selection_set else ()
                inner = [s.name.value for s in subs if isinstance(s, FieldNode)] or [""]
                names += [f"{top.name.value}.{name}".rstrip(".") for name in inner]
            return definition.operation.value, tuple(names)
    return "", ()
