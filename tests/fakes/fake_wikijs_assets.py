"""The fake Wiki.js's assets, as Wiki.js v2.5.314 keeps them.

- `POST /u` (server/controllers/upload.js): multer reads the multipart body first (a file part
  named other than `mediaUpload`, or one over `uploads.maxFileSize`, fails with multer's error,
  which Express answers with its HTML error page, HTTP 500); then 403 JSON without
  `write:assets`, 400 JSON for no file, several files, or a missing or unparsable
  `{"folderId": n}` part; the file name lower-cased, blanks and `,;#` made `_`, then
  sanitize-filename; 200 `ok`. The same name in the same folder overwrites the asset (it is
  keyed by its path). An unknown folder id is not refused: the save fails inside and is only
  logged, so the answer is still `ok` and nothing is stored.
- `GET /<folder slugs>/<file name>` (server/controllers/common.js): the path read like a page's
  (a one-letter or locale first segment dropped); with a dot it is an asset: its bytes, typed by
  the extension, or 404.
- `assets { folders, createFolder }` (server/graph/resolvers/asset.js): children of a folder
  (0 = the root); a new folder's slug is sanitize-filename'd and lower-cased, an existing one
  gives errorCode 2002, an unknown parent errorCode 1.

Uploads are stored as received: a real Wiki.js with `uploads.scanSVG` on (the default) also runs
an SVG through DOMPurify, which re-serialises it.
"""

from __future__ import annotations

import html
import json
import mimetypes
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

MAX_FILE_SIZE = 5 * 1024 * 1024  # uploads.maxFileSize's default
_ILLEGAL = re.compile(r'[/?<>\\:*|"\x00-\x1f\x80-\x9f]')
_WINDOWS_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)
_LOCALE = re.compile(r"^[A-Z]{2}(-[A-Z]{2})?$", re.IGNORECASE)


def sanitize_filename(name: str) -> str:
    """What the npm package sanitize-filename 1.6.3 leaves of a name (replacement '')."""
    name = _ILLEGAL.sub("", name)
    if re.fullmatch(r"\.+", name) or _WINDOWS_RESERVED.match(name):
        return ""
    return re.sub(r"[. ]+$", "", name).encode("utf-8")[:255].decode("utf-8", "ignore")


def error_page(status: int, message: str) -> web.Response:
    """Express's error handler outside /graphql: the HTML error view with the message."""
    body = "<!doctype html><html><body><div class='app-error'><strong>Oops, something went "
    body += f"wrong...</strong><span>{html.escape(message)}</span></div></body></html>"
    return web.Response(status=status, text=body, content_type="text/html")


@dataclass
class FakeFolder:
    """One asset folder."""

    id: int
    parent_id: int | None
    slug: str


@dataclass
class FakeAsset:
    """One stored file; `uploads` counts the uploads that wrote it (an overwrite adds one)."""

    folder_id: int | None
    filename: str
    content: bytes
    mime: str
    uploads: int = 1


@dataclass
class Upload:
    """What multer made of an upload request."""

    fields: dict[str, list[str]] = field(default_factory=dict)
    files: list[tuple[str, str, bytes]] = field(default_factory=list)  # (name, mime, bytes)
    error: str = ""  # multer's error ("File too large", "Unexpected field")


async def read_upload(request: web.Request, max_file_size: int) -> Upload:
    """Read the whole body the way multer's `.array('mediaUpload')` does."""
    upload = Upload()
    if not request.content_type.startswith("multipart/"):
        upload.error = "Cannot read properties of undefined (reading 'length')"
        return upload
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        if not part.filename:  # a field (busboy skips a file part without a name)
            upload.fields.setdefault(part.name or "", []).append(await part.text())
            continue
        data = bytearray()
        while chunk := await part.read_chunk():
            data += chunk
        if part.name != "mediaUpload":
            upload.error = upload.error or "Unexpected field"
        elif len(data) > max_file_size:
            upload.error = upload.error or "File too large"
        mime = part.headers.get("Content-Type", "application/octet-stream")
        upload.files.append((part.filename, mime, bytes(data)))
    return upload


@dataclass
class FakeAssets:
    """The asset folders and files; `files` by the path they are served at."""

    folders: dict[int, FakeFolder] = field(default_factory=dict)
    files: dict[str, FakeAsset] = field(default_factory=dict)
    max_file_size: int = MAX_FILE_SIZE
    failing_uploads: int = 0  # the next uploads answered with HTTP 500
    _next_id: int = 1

    def hierarchy(self, folder_id: int) -> list[FakeFolder]:
        """The folder and its parents, root first; [] for an unknown id (as Wiki.js)."""
        chain: list[FakeFolder] = []
        folder = self.folders.get(folder_id)
        while folder is not None:
            chain.insert(0, folder)
            folder = self.folders.get(folder.parent_id) if folder.parent_id else None
        return chain

    def children(self, parent_id: int) -> list[dict[str, Any]]:
        """`folders(parentFolderId)`: id, slug and name of each child."""
        parent = parent_id or None
        found = [f for f in self.folders.values() if f.parent_id == parent]
        return [{"id": f.id, "slug": f.slug, "name": f.slug} for f in found]

    def create_folder(self, parent_id: int, slug: str) -> tuple[int, str, str]:
        """`createFolder`: (errorCode, slug, message)."""
        slug = sanitize_filename(slug).lower()
        parent = parent_id or None
        if parent is not None and parent not in self.folders:
            return 1, "error", "insert violates foreign key constraint"
        if any(f.parent_id == parent and f.slug == slug for f in self.folders.values()):
            return 2002, "AssetFolderExists", "An asset folder with the same name already exists."
        self.folders[self._next_id] = FakeFolder(self._next_id, parent, slug)
        self._next_id += 1
        return 0, "ok", "Asset Folder has been created successfully."

    def delete_folder(self, slug_path: str) -> None:
        """A person deletes a folder in the asset manager (its files go with it)."""
        folder = next(f for f in self.folders.values() if self.path_of(f.id) == slug_path)
        del self.folders[folder.id]
        self.files = {p: a for p, a in self.files.items() if not p.startswith(f"{slug_path}/")}

    def path_of(self, folder_id: int) -> str:
        """The folder's slugs joined by `/`."""
        return "/".join(f.slug for f in self.hierarchy(folder_id))

    def upload(self, upload: Upload, user: str) -> web.Response:
        """The rest of the upload route, once multer has read the body."""
        if upload.error:
            return error_page(500, upload.error)
        if user != "admin":
            return _refused(403, "You are not authorized to upload files.")
        if not upload.files:
            return _refused(400, "Missing upload payload.")
        if len(upload.files) > 1:
            return _refused(400, "You cannot upload multiple files within the same request.")
        raw = upload.fields.get("mediaUpload", [])
        try:
            meta = json.loads(raw[0]) if len(raw) == 1 and raw[0] else None
        except ValueError:
            meta = None
        if meta is None:
            return _refused(400, "Missing upload folder metadata.")
        folder_id = meta.get("folderId") if isinstance(meta, dict) else None
        name, mime, content = upload.files[0]
        name = sanitize_filename(re.sub(r"[\s,;#]+", "_", name.lower()))
        path = f"{self.path_of(folder_id)}/{name}" if folder_id else name
        if folder_id and folder_id not in self.folders:
            return web.Response(text="ok")  # the insert failed inside; only logged
        asset = self.files.get(path)
        if asset is None:
            self.files[path] = FakeAsset(folder_id or None, name, content, mime)
        else:
            asset.content, asset.mime, asset.uploads = content, mime, asset.uploads + 1
        return web.Response(text="ok")

    def serve(self, url_path: str) -> web.Response:
        """`GET` of an asset's path (a path without a dot is a page: not rendered here)."""
        parts = [p for p in url_path.split("/") if p.strip() and p not in {".", ".."}]
        if parts and len(parts[0]) == 1:
            parts.pop(0)
        if parts and _LOCALE.match(parts[0]):
            parts.pop(0)
        path = "/".join(parts)
        asset = self.files.get(path) if "." in path else None
        if asset is None:
            return web.Response(status=404, text="Not Found")
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        return web.Response(body=asset.content, content_type=kind)


def _refused(status: int, message: str) -> web.Response:
    return web.json_response({"succeeded": False, "message": message}, status=status)
