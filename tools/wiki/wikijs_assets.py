"""Files beside the pages on Wiki.js 2.5 (the ledger's `concepts.svg`), as its assets: the
asset folders matching the page's folder made through GraphQL, the file uploaded through
`POST /u`, then fetched where Wiki.js serves it, `/<folder slugs>/<file name>`.

What Wiki.js does (v2.5.314, server/controllers/upload.js, server/models/assets.js,
server/graph/resolvers/asset.js): an upload is one multipart request with two parts named
`mediaUpload`, the folder as JSON `{"folderId": n}` (0 = the root) and then the file; it
answers 200 `ok`, 403 or 400 with JSON `{succeeded, message}`, or its 500 error page (a file
over `uploads.maxFileSize` among them). The same file name in the same folder overwrites the
asset. Folder slugs and file names are stored lower-cased. A failure while saving the file is
only logged and still answered `ok`, hence the fetch afterwards.
"""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

import aiohttp

from tools.wiki.backends import WikiError
from tools.wiki.wikijs_errors import graphql_error, upload_error

Call = Callable[[str, dict[str, Any]], Awaitable[tuple[dict[str, Any], list[dict[str, Any]]]]]
Send = Callable[[str, str, aiohttp.FormData | None], Awaitable[tuple[int, str]]]

FOLDERS = """
query DebateRoomAssetFolders($parentFolderId: Int!) {
  assets { folders(parentFolderId: $parentFolderId) { id slug name } }
}
"""

CREATE_FOLDER = """
mutation DebateRoomAssetFolder($parentFolderId: Int!, $slug: String!) {
  assets {
    createFolder(parentFolderId: $parentFolderId, slug: $slug) {
      responseResult { succeeded errorCode slug message }
    }
  }
}
"""

ROOT_FOLDER = 0
FOLDER_EXISTS = 2002  # AssetFolderExists: made meanwhile (by another writer)
_BLANKS = re.compile(r"[\s,;#]+")  # what the upload turns into `_` in a file name


def served_path(path: str) -> str:
    """Where Wiki.js serves the asset stored for `path` (no leading slash): folder slugs and
    file name lower-cased, as Wiki.js stores them."""
    *folders, name = path.split("/")
    return "/".join([*(folder.lower() for folder in folders), _BLANKS.sub("_", name.lower())])


def served_url_path(path: str) -> str:
    """`served_path` as an absolute URL path, percent-encoded (Hangul included)."""
    return "/" + quote(served_path(path), safe="/")


class WikiJsAssets:
    """Uploads files into asset folders that mirror the pages' folders."""

    def __init__(self, call: Call, send: Send) -> None:
        self._call = call
        self._send = send

    async def upload(self, path: str, content: bytes) -> None:
        """Store the file for `path`, replacing one there; raise WikiError unless it is then
        served. A repeat uploads the same bytes over the same asset."""
        *folders, name = path.split("/")
        folder_id = await self._folder(folders)
        form = aiohttp.FormData(quote_fields=False)  # the name as it is (multer reads it so)
        form.add_field("mediaUpload", json.dumps({"folderId": folder_id}))
        mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
        form.add_field("mediaUpload", content, filename=name, content_type=mime)
        status, text = await self._send("POST", "/u", form)
        if status != 200:
            raise upload_error(status, text)
        status, text = await self._send("GET", served_url_path(path), None)
        if status == 404:  # saved nowhere although answered `ok`
            raise WikiError("asset_missing", f"{path} was uploaded but Wiki.js does not serve it")
        if status != 200:
            raise upload_error(status, text)

    async def _folder(self, folders: list[str]) -> int:
        """The id of the asset folder at this path, made (with its parents) if missing; looked
        up at each upload (a rare write), so a folder a person deleted is simply made again."""
        parent = ROOT_FOLDER
        for folder in folders:
            parent = await self._child(parent, folder.lower())
        return parent

    async def _child(self, parent: int, slug: str) -> int:
        found = await self._find(parent, slug)
        if found is None:
            await self._create(parent, slug)
            found = await self._find(parent, slug)
        if found is None:  # Wiki.js stored another slug (sanitize-filename dropped a name)
            raise WikiError("6005", f"Wiki.js cannot make an asset folder named {slug!r}")
        return found

    async def _find(self, parent: int, slug: str) -> int | None:
        data, errors = await self._call(FOLDERS, {"parentFolderId": parent})
        if errors:
            raise graphql_error(errors)
        children = (data.get("assets") or {}).get("folders") or ()
        return next((int(f["id"]) for f in children if f and f.get("slug") == slug), None)

    async def _create(self, parent: int, slug: str) -> None:
        data, errors = await self._call(CREATE_FOLDER, {"parentFolderId": parent, "slug": slug})
        reply = (data.get("assets") or {}).get("createFolder")
        if reply is None:
            raise graphql_error(errors) if errors else WikiError("bad_response", "empty reply")
        result = reply["responseResult"]
        code = int(result.get("errorCode") or 0)
        if not result.get("succeeded") and code != FOLDER_EXISTS:
            raise WikiError(str(code), str(result.get("message") or "createFolder failed"))
