"""Precedents (issues 18, 31): past Conclusion pages related to a new proposal by what they
are about (tools.wiki.relevance), each with the words it matched on. The local wiki's pages
are read from their files (kept by modification time); Wiki.js is asked through its search."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from handlers.core.model import Precedent
from tools.wiki.backends import LocalWiki, WikiBackend, split_front_matter
from tools.wiki.relevance import relevant, terms
from tools.wiki.wikijs import WikiJsWiki

CONCLUSION = "conclusion"
EXCERPT_CHARS = 160
SEARCH = """
query DebateRoomPrecedents($query: String!, $locale: String) {
  pages { search(query: $query, locale: $locale) { results { id title description path } } }
}
"""


class LocalPrecedents:
    """The local wiki's Conclusion pages, read again from a file only when it changed."""

    def __init__(self, wiki: LocalWiki, root: str) -> None:
        self._wiki = wiki
        self._folder = wiki.file_of(f"{root}/x").parent
        self._root = root
        self._pages: dict[str, tuple[float, str, str]] = {}  # path -> (mtime, title, text)
        self._lock = asyncio.Lock()

    async def search(self, text: str, limit: int) -> tuple[Precedent, ...]:
        """Up to `limit` Conclusion pages about what `text` is about, best first."""
        wanted = terms(text)
        if not wanted:
            return ()
        async with self._lock:
            await asyncio.to_thread(self._refresh)
        pages = self._pages.items()
        shared = {path: _held(wanted, f"{title}\n{body}") for path, (_, title, body) in pages}
        found = relevant(shared, wanted, len(self._pages))[:limit]
        return tuple(self._precedent(path, words) for path, words in found)

    def _precedent(self, path: str, words: tuple[str, ...]) -> Precedent:
        _, title, body = self._pages[path]
        return Precedent(title, self._wiki.url(path), _excerpt(body), words)

    def _refresh(self) -> None:
        """Read every `<root>/<slug>/conclusion.md` that is new or changed since last time."""
        files = list(self._folder.glob(f"*/{CONCLUSION}.md")) if self._folder.is_dir() else []
        kept = {f"{self._root}/{file.parent.name}/{CONCLUSION}": file for file in files}
        self._pages = {path: self._read(path, file) for path, file in kept.items()}

    def _read(self, path: str, file: Path) -> tuple[float, str, str]:
        mtime = file.stat().st_mtime
        known = self._pages.get(path)
        if known is not None and known[0] == mtime:
            return known
        title, body = split_front_matter(file.read_text(encoding="utf-8"), path)
        return mtime, title, body


class WikiJsPrecedents:
    """Wiki.js's own search, word by word, keeping the Conclusion pages under the bot's root."""

    def __init__(self, wiki: WikiJsWiki, root: str, locale: str = "en") -> None:
        self._wiki = wiki
        self._root = root.strip("/")
        self._locale = locale

    async def search(self, text: str, limit: int) -> tuple[Precedent, ...]:
        """Up to `limit` Conclusion pages Wiki.js finds about what `text` is about."""
        wanted = terms(text)
        hits: dict[str, dict[str, Any]] = {}
        shared: dict[str, tuple[str, ...]] = {}
        for word in wanted:  # Wiki.js's basic engine matches one phrase: ask word by word
            for hit in await self._hits(word):
                path = str(hit.get("path", "")).strip("/")
                if path.startswith(f"{self._root}/") and path.endswith(f"/{CONCLUSION}"):
                    hits.setdefault(path, hit)
                    shared[path] = (*shared.get(path, ()), word)
        found = relevant(shared, wanted, len(hits))[:limit]
        return tuple(_precedent(self._wiki, path, hits[path], words) for path, words in found)

    async def _hits(self, word: str) -> list[dict[str, Any]]:
        data, errors = await self._wiki.call(SEARCH, {"query": word, "locale": self._locale})
        if errors:
            return []
        return list(((data.get("pages") or {}).get("search") or {}).get("results") or [])


def _precedent(
    wiki: WikiJsWiki, path: str, hit: dict[str, Any], words: tuple[str, ...]
) -> Precedent:
    title, description = str(hit.get("title", path)), str(hit.get("description", ""))
    return Precedent(title, wiki.url(path), _excerpt(description), words)


def _held(wanted: list[str], text: str) -> tuple[str, ...]:
    """The wanted words the page's text holds (a Korean particle may follow one there)."""
    folded = text.casefold()
    return tuple(word for word in wanted if word in folded)


def _excerpt(body: str) -> str:
    words = " ".join(body.replace("#", " ").replace("_", " ").split())
    return words if len(words) <= EXCERPT_CHARS else words[: EXCERPT_CHARS - 1] + "…"


def precedents_for(backend: WikiBackend, root: str) -> LocalPrecedents | WikiJsPrecedents | None:
    """The search that fits the configured wiki."""
    if isinstance(backend, LocalWiki):
        return LocalPrecedents(backend, root)
    if isinstance(backend, WikiJsWiki):
        return WikiJsPrecedents(backend, root, backend.locale)
    return None
