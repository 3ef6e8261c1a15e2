"""Wiki.js 2.x through its GraphQL API: find a page by path, then create it or update it;
a file beside the pages (the ledger's diagram) is uploaded as an asset."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import aiohttp

from tools.wiki.backends import ASSET_SUFFIXES, StoredPage, WikiError
from tools.wiki.wikijs_assets import WikiJsAssets, served_url_path
from tools.wiki.wikijs_errors import error_code, graphql_error, http_error, parse_json

CHECK_KEY = "query DebateRoomKeyCheck { authentication { apiState } }"

SINGLE_BY_PATH = """
query DebateRoomPage($path: String!, $locale: String!) {
  pages {
    singleByPath(path: $path, locale: $locale) {
      id path title description content tags { tag } isPublished scriptCss scriptJs updatedAt
    }
  }
}
"""

# Never select `page { locale editor }` here: Wiki.js then answers page: null with an error.
CREATE_PAGE = """
mutation DebateRoomCreate(
  $content: String!, $description: String!, $editor: String!, $isPublished: Boolean!,
  $isPrivate: Boolean!, $locale: String!, $path: String!, $tags: [String]!, $title: String!
) {
  pages {
    create(
      content: $content, description: $description, editor: $editor,
      isPublished: $isPublished, isPrivate: $isPrivate, locale: $locale, path: $path,
      tags: $tags, title: $title
    ) {
      responseResult { succeeded errorCode slug message }
      page { id path title updatedAt }
    }
  }
}
"""

# Always send content, tags, isPublished and the page's own scripts (omitted means wiped or
# unpublished); never path or locale, which would try to move the page.
UPDATE_PAGE = """
mutation DebateRoomUpdate(
  $id: Int!, $content: String!, $title: String!, $description: String!, $tags: [String]!,
  $isPublished: Boolean!, $scriptCss: String, $scriptJs: String
) {
  pages {
    update(
      id: $id, content: $content, title: $title, description: $description, tags: $tags,
      isPublished: $isPublished, scriptCss: $scriptCss, scriptJs: $scriptJs
    ) {
      responseResult { succeeded errorCode slug message }
      page { id path title updatedAt }
    }
  }
}
"""

DEFAULT_TAGS = ("debate-room",)
NOT_FOUND = 6003
EXISTS = 6002
ANY_EXCEPTION = 1  # a partial write may have happened: read back before deciding


class WikiJsWiki:
    """A Wiki.js 2.x server: pages in locale `en`, Markdown editor, published."""

    wikijs_callouts = True  # a GitHub alert is written as a blockquote with `{.is-info}`

    def __init__(
        self,
        url: str,
        api_key: str | None,
        *,
        timeout_s: float = 60.0,
        locale: str = "en",
        tags: tuple[str, ...] = DEFAULT_TAGS,
        public_url: str | None = None,
    ) -> None:
        self._base = url.rstrip("/")
        # Links people open: the API's address may be one only the bot reaches (compose).
        self._public = (public_url or url).rstrip("/")
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._locale = locale
        self._tags = tags
        self._session: aiohttp.ClientSession | None = None
        self._assets = WikiJsAssets(self.call, self._send)

    async def check(self) -> str:
        """A call that needs the key's privileges: one clear line for each way it fails."""
        data, errors = await self.call(CHECK_KEY, {})
        state = (data.get("authentication") or {}).get("apiState")
        if errors or state is not True:
            raise WikiError(
                "guest",
                "the Wiki.js API key is not accepted and requests run as Guest: "
                "set WIKIJS_API_KEY to a full-access key",
            )
        return f"Wiki.js at {self._base} (full-access API key)"

    async def read(self, path: str) -> StoredPage | None:
        """The page at `path` in our locale, or None (6003). An asset is not read back (None):
        the bot's file has no person's edit to keep, so it is written as it is."""
        if path.endswith(ASSET_SUFFIXES):
            return None
        data, errors = await self.call(SINGLE_BY_PATH, {"path": path, "locale": self._locale})
        if errors:
            if error_code(errors[0]) == NOT_FOUND:
                return None
            raise graphql_error(errors)
        page = (data.get("pages") or {}).get("singleByPath")
        if page is None:
            return None
        return StoredPage(
            path=page["path"],
            title=page["title"],
            content=page["content"],
            page_id=str(page["id"]),
            updated_at=str(page["updatedAt"]),
            published=bool(page["isPublished"]),
            description=page.get("description") or "",
            tags=tuple(tag["tag"] for tag in page.get("tags") or () if tag),
            script_css=page.get("scriptCss"),
            script_js=page.get("scriptJs"),
        )

    async def write(
        self, path: str, title: str, content: str, current: StoredPage | None
    ) -> StoredPage:
        """Create or update the page (an update that changes nothing is not sent); upload a file."""
        if path.endswith(ASSET_SUFFIXES):
            await self._assets.upload(path, content.encode("utf-8"))
            return StoredPage(path, title, content, page_id=path)
        if current is None:
            return await self._create(path, title, content)
        return await self._update(current, title, content)

    def url(self, path: str) -> str:
        """The page's address, percent-encoded; a file's where Wiki.js serves it."""
        if path.endswith(ASSET_SUFFIXES):
            return f"{self._public}{served_url_path(path)}"
        return f"{self._public}/{quote(path, safe='/')}"

    def link(self, page_path: str, target_path: str) -> str:
        """The path from the site's root (Wiki.js reads a relative link as below the page
        itself): right wherever the page is shown (`/en/...`, its history); an asset's with
        the folder slugs lower-cased as Wiki.js keeps them."""
        if target_path.endswith(ASSET_SUFFIXES):
            return served_url_path(target_path)
        return "/" + quote(target_path, safe="/")

    async def aclose(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _create(self, path: str, title: str, content: str) -> StoredPage:
        variables = {
            "content": content,
            "description": "",
            "editor": "markdown",
            "isPublished": True,
            "isPrivate": False,
            "locale": self._locale,
            "path": path,
            "tags": list(self._tags),
            "title": title,
        }
        result, page = await self._mutate(CREATE_PAGE, variables, "create")
        if not result.get("succeeded") and int(result.get("errorCode") or 0) == EXISTS:
            existing = await self.read(path)  # an earlier create landed (before a crash)
            if existing is not None:
                return await self._update(existing, title, content)
        return await self._settled(result, page, path, title, content)

    async def _update(self, current: StoredPage, title: str, content: str) -> StoredPage:
        tags = tuple(dict.fromkeys((*current.tags, *self._tags)))
        unchanged = current.content == content and current.title == title
        if unchanged and current.published and set(tags) == set(current.tags):
            return current  # every update adds a history version: skip the ones that do nothing
        variables = {
            "id": int(current.page_id),
            "content": content,
            "title": title,
            "description": current.description,
            "tags": list(tags),
            "isPublished": True,
            "scriptCss": current.script_css or "",
            "scriptJs": current.script_js or "",
        }
        result, page = await self._mutate(UPDATE_PAGE, variables, "update")
        return await self._settled(result, page, current.path, title, content)

    async def _settled(
        self,
        result: dict[str, Any],
        page: dict[str, Any] | None,
        path: str,
        title: str,
        content: str,
    ) -> StoredPage:
        """The page a create or update wrote, or WikiError with the code it failed with."""
        if not result.get("succeeded"):
            code = int(result.get("errorCode") or 0)
            if code == ANY_EXCEPTION:  # the write may have landed anyway: trust a read-back
                stored = await self.read(path)
                if stored is not None and stored.content == content and stored.title == title:
                    return stored
            raise WikiError(str(code), str(result.get("message") or "write failed"))
        if page is None:  # the write succeeded but the reply lost the page: read it back
            stored = await self.read(path)
            if stored is None:
                raise WikiError("bad_response", f"{path} written but not found")
            return stored
        return StoredPage(
            path, title, content, page_id=str(page["id"]), updated_at=str(page["updatedAt"])
        )

    async def _mutate(
        self, query: str, variables: dict[str, Any], name: str
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        data, errors = await self.call(query, variables)
        reply = (data.get("pages") or {}).get(name)
        if reply is None:
            raise graphql_error(errors) if errors else WikiError("bad_response", "empty reply")
        return reply["responseResult"], reply.get("page")

    @property
    def locale(self) -> str:
        """The locale the bot's pages are in."""
        return self._locale

    async def call(
        self, query: str, variables: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One GraphQL operation: its data and errors; HTTP-level failures raise WikiError."""
        payload = {"query": query, "variables": variables}
        status, text = await self._send("POST", "/graphql", payload)
        body = parse_json(text)
        errors = [e for e in body.get("errors") or () if isinstance(e, dict)]
        if status != 200:
            message = str(errors[0].get("message", "")) if errors else ""
            raise http_error(status, message)
        data = body.get("data")
        return (data if isinstance(data, dict) else {}), errors

    async def _send(
        self, method: str, path: str, body: dict[str, Any] | aiohttp.FormData | None
    ) -> tuple[int, str]:
        """One request with the key (a dict as JSON, a form as multipart): status and text."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=self._timeout)
        payload = body if isinstance(body, dict) else None
        form = body if isinstance(body, aiohttp.FormData) else None
        try:
            async with self._session.request(
                method, f"{self._base}{path}", headers=self._headers, json=payload, data=form
            ) as response:
                return response.status, (await response.read()).decode("utf-8", "replace")
        except TimeoutError as exc:
            raise WikiError("timeout", f"no answer from {self._base} in time") from exc
        except aiohttp.ClientError as exc:
            raise WikiError("unreachable", f"cannot reach {self._base}: {exc}") from exc
