"""Precedents: past Conclusion pages related to a new proposal by what they
are about (tools.wiki.relevance), each with the words it matched on. The local wiki's pages
are read from their files; Wiki.js is asked through its search."""

from __future__ import annotations

import asyncio
from typing import Any

from handlers.core.model import Precedent
from handlers.core.shorten import gist
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
    """The local wiki's Conclusion pages, read from their files at each search (a card is a
    rare event: no index to keep)."""

    def __init__(self, wiki: LocalWiki, root: str) -> None:
        self._wiki = wiki
        self._folder = wiki.file_of(f"{root}/x").parent
        self._root = root

    async def search(self, text: str, limit: int) -> tuple[Precedent, ...]:
        """Up to `limit` Conclusion pages about what `text` is about, best first."""
        wanted = terms(text)
        if not wanted:
            return ()
        pages = await asyncio.to_thread(self._read)
        shared = {path: _held(wanted, f"{title}\n{body}") for path, (title, body) in pages.items()}
        found = relevant(shared, wanted, len(pages))[:limit]
        return tuple(
            Precedent(pages[path][0], self._wiki.url(path), _excerpt(pages[path][1]), words)
            for path, words in found
        )

    def _read(self) -> dict[str, tuple[str, str]]:
        """Every `<root>/<slug>/conclusion.md`: its title and body."""
        pages = {}
        for file in self._folder.glob(f"*/{CONCLUSION}.md") if self._folder.is_dir() else ():
            path = f"{self._root}/{file.parent.name}/{CONCLUSION}"
            pages[path] = split_front_matter(file.read_text(encoding="utf-8"), path)
        return pages


class WikiJsPrecedents:
    """Wiki.js's own search, word by word, keeping the Conclusion pages under the bot's root."""

    def __init__(self, wiki: WikiJsWiki, root: str) -> None:
        self._wiki = wiki
        self._root = root.strip("/")

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
        data, errors = await self._wiki.call(SEARCH, {"query": word, "locale": self._wiki.locale})
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
    return gist(body.replace("#", " ").replace("_", " "), EXCERPT_CHARS)


def precedents_for(backend: WikiBackend, root: str) -> LocalPrecedents | WikiJsPrecedents | None:
    """The search that fits the configured wiki."""
    if isinstance(backend, LocalWiki):
        return LocalPrecedents(backend, root)
    if isinstance(backend, WikiJsWiki):
        return WikiJsPrecedents(backend, root)
    return None
