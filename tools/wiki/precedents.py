"""Precedents (issue 18): past Conclusion pages related to a new proposal. The local wiki is
searched through a full-text index in SQLite (FTS5 with the trigram tokenizer: Korean glues
particles to words, so whole-word matching would miss most hits); Wiki.js through its search."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from typing import Any

from handlers.core.model import Precedent
from tools.wiki.backends import LocalWiki, WikiBackend, split_front_matter
from tools.wiki.wikijs import WikiJsWiki

CONCLUSION = "conclusion"
EXCERPT_CHARS = 160
MIN_TERM_CHARS = 2  # Korean nouns are often two syllables (캐시, 로그)
TRIGRAM = 3  # the trigram index matches words this long; shorter ones are looked up by LIKE
MAX_TERMS = 12
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
SEARCH = """
query DebateRoomPrecedents($query: String!, $locale: String) {
  pages { search(query: $query, locale: $locale) { results { id title description path } } }
}
"""


def terms(text: str) -> list[str]:
    """The words of the topic and question worth searching for, longest first."""
    words = {w.casefold() for w in _WORD.findall(text) if len(w) >= MIN_TERM_CHARS}
    return sorted(words, key=lambda w: (-len(w), w))[:MAX_TERMS]


class LocalPrecedents:
    """The local wiki's Conclusion pages in an SQLite full-text index, refreshed from the files
    (by modification time) before each search."""

    def __init__(self, wiki: LocalWiki, root: str) -> None:
        self._wiki = wiki
        self._folder = wiki.file_of(f"{root}/x").parent
        self._root = root
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.executescript(
            "CREATE TABLE seen (path TEXT PRIMARY KEY, mtime REAL);"
            "CREATE VIRTUAL TABLE pages"
            " USING fts5(path UNINDEXED, title, body, tokenize='trigram');"
        )
        self._lock = asyncio.Lock()

    async def search(self, text: str, limit: int) -> tuple[Precedent, ...]:
        """Up to `limit` Conclusion pages matching the words of `text`, best first."""
        wanted = terms(text)
        if not wanted:
            return ()
        async with self._lock:
            rows = await asyncio.to_thread(self._query, wanted, limit)
        return tuple(
            Precedent(title, self._wiki.url(path), _excerpt(body)) for path, title, body in rows
        )

    def _query(self, wanted: list[str], limit: int) -> list[tuple[str, str, str]]:
        """Pages holding any of the words (the index for long ones, LIKE for two-syllable
        ones), ranked by how many of the words each holds."""
        self._refresh()
        found: dict[str, tuple[str, str, str]] = {}
        long = [w for w in wanted if len(w) >= TRIGRAM]
        if long:
            match = " OR ".join('"' + w.replace('"', '""') + '"' for w in long)
            sql = "SELECT path, title, body FROM pages WHERE pages MATCH ? ORDER BY bm25(pages)"
            for row in self._db.execute(sql, (match,)):
                found.setdefault(str(row[0]), (str(row[0]), str(row[1]), str(row[2])))
        for word in (w for w in wanted if len(w) < TRIGRAM):
            like = f"%{word}%"
            sql = "SELECT path, title, body FROM pages WHERE title LIKE ? OR body LIKE ?"
            for row in self._db.execute(sql, (like, like)):
                found.setdefault(str(row[0]), (str(row[0]), str(row[1]), str(row[2])))

        def held(row: tuple[str, str, str]) -> int:
            text = f"{row[1]}\n{row[2]}".casefold()
            return sum(word in text for word in wanted)

        return sorted(found.values(), key=held, reverse=True)[:limit]

    def _refresh(self) -> None:
        """Index every `<root>/<slug>/conclusion.md` that is new or changed since last time."""
        if not self._folder.is_dir():
            return
        seen = dict(self._db.execute("SELECT path, mtime FROM seen").fetchall())
        for file in self._folder.glob(f"*/{CONCLUSION}.md"):
            path = f"{self._root}/{file.parent.name}/{CONCLUSION}"
            mtime = file.stat().st_mtime
            if seen.get(path) == mtime:
                continue
            title, body = split_front_matter(file.read_text(encoding="utf-8"), path)
            with self._db:
                self._db.execute("DELETE FROM pages WHERE path = ?", (path,))
                self._db.execute("INSERT INTO pages VALUES (?, ?, ?)", (path, title, body))
                self._db.execute("INSERT OR REPLACE INTO seen VALUES (?, ?)", (path, mtime))


class WikiJsPrecedents:
    """Wiki.js's own search, keeping the Conclusion pages under the bot's root."""

    def __init__(self, wiki: WikiJsWiki, root: str, locale: str = "en") -> None:
        self._wiki = wiki
        self._root = root.strip("/")
        self._locale = locale

    async def search(self, text: str, limit: int) -> tuple[Precedent, ...]:
        """Up to `limit` Conclusion pages Wiki.js finds for the words of `text`."""
        wanted = terms(text)
        if not wanted:
            return ()
        found: dict[str, Precedent] = {}
        for word in wanted:  # Wiki.js's basic engine matches one phrase: ask word by word
            for hit in await self._hits(word):
                path = str(hit.get("path", "")).strip("/")
                if path.startswith(f"{self._root}/") and path.endswith(f"/{CONCLUSION}"):
                    found.setdefault(path, _precedent(self._wiki, path, hit))
            if len(found) >= limit:
                break
        return tuple(found.values())[:limit]

    async def _hits(self, word: str) -> list[dict[str, Any]]:
        data, errors = await self._wiki.call(SEARCH, {"query": word, "locale": self._locale})
        if errors:
            return []
        return list(((data.get("pages") or {}).get("search") or {}).get("results") or [])


def _precedent(wiki: WikiJsWiki, path: str, hit: dict[str, Any]) -> Precedent:
    return Precedent(
        str(hit.get("title", path)), wiki.url(path), _excerpt(str(hit.get("description", "")))
    )


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
