"""Where pages are stored: the backend protocol, its error, and the local Markdown wiki."""

from __future__ import annotations

import asyncio
import json
import os
import posixpath
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from tools.wiki.local_files import cannot_write, write_atomically

_FRONT = "---\n"


class WikiError(Exception):
    """A wiki operation failed; `code` names why (e.g. "unreachable", "forbidden", "6005")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class StoredPage:
    """A page as the wiki holds it."""

    path: str
    title: str
    content: str
    page_id: str = ""
    updated_at: str = ""
    published: bool = True
    description: str = ""
    tags: tuple[str, ...] = ()
    script_css: str | None = None
    script_js: str | None = None


class WikiBackend(Protocol):
    """A place that stores pages by path: Wiki.js, or a local folder of Markdown files."""

    async def read(self, path: str) -> StoredPage | None:
        """The page at `path`, or None if there is none."""
        ...

    async def write(
        self, path: str, title: str, content: str, current: StoredPage | None
    ) -> StoredPage:
        """Create or update the page; `current` is what `read` just returned."""
        ...

    def url(self, path: str) -> str:
        """Where a person reads the page (no I/O)."""
        ...

    def link(self, page_path: str, target_path: str) -> str:
        """How the page at `page_path` links the page or file at `target_path` (no I/O)."""
        ...

    async def check(self) -> str:
        """Confirm the wiki is usable; raise WikiError with one clear line if not."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


ASSET_SUFFIXES = (".svg",)  # files saved beside the pages as they are (no front matter)


class LocalWiki:
    """The pages as Markdown files under a folder: `<dir>/<path>.md` with the title on top."""

    def __init__(self, directory: Path) -> None:
        self._root = Path(directory).absolute()  # not resolve(): no I/O here

    def file_of(self, path: str) -> Path:
        """The file holding the page at `path`."""
        parts = path.split("/")
        if not path or any(part in ("", ".", "..") for part in parts):
            raise WikiError("6005", f"illegal path {path!r}")
        name = parts[-1] if parts[-1].endswith(ASSET_SUFFIXES) else f"{parts[-1]}.md"
        return self._root.joinpath(*parts[:-1], name)

    async def read(self, path: str) -> StoredPage | None:
        """The page, or None if its file does not exist."""
        file = self.file_of(path)
        try:  # on the loop, as a write is (tools.wiki.local_files)
            text = file.read_text(encoding="utf-8")
            updated_at = _iso(file.stat().st_mtime)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise WikiError("io", f"cannot read {file}: {exc.strerror}") from exc
        title, content = split_front_matter(text, default_title=path.rsplit("/", 1)[-1])
        return StoredPage(path, title, content, page_id=path, updated_at=updated_at)

    async def write(
        self, path: str, title: str, content: str, current: StoredPage | None
    ) -> StoredPage:
        """Write the file atomically; skip it when nothing would change."""
        if current is not None and current.title == title and current.content == content:
            return current
        file = self.file_of(path)
        try:
            stat = await write_atomically(file, self._text(path, title, content), _PAGE_MODE)
        except OSError as exc:
            raise WikiError("io", f"cannot write {file}: {exc.strerror}") from exc
        return StoredPage(path, title, content, page_id=path, updated_at=_iso(stat.st_mtime))

    @staticmethod
    def _text(path: str, title: str, content: str) -> str:
        if path.endswith(ASSET_SUFFIXES):
            return content  # a diagram beside the pages: the file is the asset itself
        return f"{_FRONT}title: {json.dumps(title, ensure_ascii=False)}\n{_FRONT}\n{content}"

    def url(self, path: str) -> str:
        """A file:// URL (percent-encoded) of the page's file."""
        return self.file_of(path).as_uri()

    def link(self, page_path: str, target_path: str) -> str:
        """The file relative to the page's file (beside it: its bare name; a page's `.md`)."""
        relative = posixpath.relpath(target_path, posixpath.dirname(page_path) or ".")
        return relative if target_path.endswith(ASSET_SUFFIXES) else f"{relative}.md"

    async def check(self) -> str:
        """The folder is writable, or can be made where it is named; nothing is written
        (the first page makes the folder)."""
        why, made = await asyncio.to_thread(lambda: (cannot_write(self._root), self._root.is_dir()))
        if why:
            raise WikiError("io", f"local wiki folder {self._root} is not writable: {why}")
        later = "" if made else " (not made yet: the first page makes it)"
        return f"local wiki in {self._root}{later}"

    async def aclose(self) -> None:
        """Nothing to release."""


def _page_mode() -> int:
    """0666 less the process's umask, as an ordinary file write would give."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_PAGE_MODE = _page_mode()


def split_front_matter(text: str, default_title: str) -> tuple[str, str]:
    """(title, content) of a file; a file a person rewrote without front matter is all content."""
    if not text.startswith(_FRONT):
        return default_title, text
    end = text.find(f"\n{_FRONT}", len(_FRONT) - 1)
    if end < 0:
        return default_title, text
    title = default_title
    for line in text[len(_FRONT) : end].splitlines():
        if line.startswith("title:"):
            raw = line[len("title:") :].strip()
            try:
                title = str(json.loads(raw))
            except ValueError:
                title = raw
    body = text[end + len(_FRONT) + 1 :]
    return title, body.removeprefix("\n")


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat()
