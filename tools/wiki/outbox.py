"""The engine's `Wiki` port: each write is stored in `wiki_outbox` first, then one writer per
debate applies the entries in order to a backend, retrying with backoff until each lands."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from handlers.model import Conclusion, Debate, Turn, WikiPage
from handlers.replacing import replace
from handlers.shorten import shorten
from tools.store.db import Database
from tools.wiki.asset_links import link_assets
from tools.wiki.backends import ASSET_SUFFIXES, WikiBackend, WikiError
from tools.wiki.landing import Entry, PageWriter
from tools.wiki.merge import Mode, content_hash
from tools.wiki.pages import (
    MAX_TITLE_CHARS,
    Translate,
    fill_keys,
    page_label,
    page_title,
    render_agenda,
    render_conclusion,
    render_round_note,
    render_round_section,
    render_working_document,
)
from tools.wiki.round_log import PART_LIMIT_CHARS, pieces
from tools.wiki.slug import check_root, normalize_root, page_path, topic_slug

log = logging.getLogger(__name__)

Notify = Callable[[int, str, dict[str, str]], Awaitable[None]]
Sleep = Callable[[float], Awaitable[None]]

NOTICE_AFTER = 2  # failed attempts before the thread hears of a delay: one blip is not news
# Refusals that no retry can change (too large, an illegal path): the write is given up, the
# thread is told, and the debate's later writes go on. The text stays in SQLite (turns).
PERMANENT = frozenset({"too_large", "6004", "6005", "6006", "http_400"})
GIVE_UP = """
UPDATE wiki_outbox SET done_at = ?, next_attempt_at = NULL, last_error = ?, attempts = attempts + 1
WHERE id = ?
"""

INSERT_ENTRY = """
INSERT INTO wiki_outbox (debate_id, dedup_key, path, title, mode, content, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedup_key) DO NOTHING RETURNING id
"""
SELECT_NEXT = """
SELECT id, debate_id, dedup_key, path, title, mode, content, attempts FROM wiki_outbox
WHERE debate_id = ? AND done_at IS NULL AND id > ? ORDER BY id LIMIT ?
"""
BATCH = 8  # entries read at once
SELECT_PENDING_DEBATES = (
    "SELECT DISTINCT debate_id FROM wiki_outbox WHERE done_at IS NULL ORDER BY debate_id"
)
COUNT_PENDING = "SELECT COUNT(*) FROM wiki_outbox WHERE debate_id = ? AND done_at IS NULL"
RECORD_FAILURE = """
UPDATE wiki_outbox SET attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?
"""


@dataclass
class _Delay:
    """One writer run's delay state: announced to the thread, and writes landed since."""

    announced: bool
    landed: int = 0


def backoff(attempts: int, first_s: float, max_s: float) -> float:
    """The wait after the `attempts`-th failure: doubling from `first_s`, at most `max_s`
    (the doubling stops at the cap, so a wiki down for days never overflows a float)."""
    wait = first_s
    for _ in range(attempts - 1):
        if wait >= max_s:
            break
        wait *= 2
    return min(wait, max_s)


def _utcnow() -> datetime:
    return datetime.now(UTC)


class WikiOutbox:
    """The debate's pages through a durable queue: nothing lost, in order, once."""

    def __init__(
        self,
        db: Database,
        backend: WikiBackend,
        *,
        root: str,
        strings: Translate,
        notify: Notify,
        sleep: Sleep,
        now: Callable[[], datetime] = _utcnow,
        first_backoff_s: float = 2.0,
        max_backoff_s: float = 300.0,
        part_limit: int = PART_LIMIT_CHARS,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        check_root(root)
        self._db = db
        self._backend = backend
        self._root = normalize_root(root)
        self._t = strings
        self._notify = notify
        self._sleep = sleep
        self._now = now
        self._first_backoff = first_backoff_s
        self._max_backoff = max_backoff_s
        self._part_limit = part_limit
        # Whose writes this process applies: every debate's, unless processes share them
        # (then only those of the debates it holds the lease of, checked before each write).
        self._owns = owns or (lambda _debate_id: True)
        self._writers: dict[int, asyncio.Task[None]] = {}
        # The entries this process queued since its writer last read the table, handed to the
        # writer as stored (nothing to read back), and the kicks that handed nothing (a
        # restart, a claimed debate, a repeat): after one of those, the writer reads again.
        self._handed: defaultdict[int, list[Entry]] = defaultdict(list)
        self._unhanded: defaultdict[int, int] = defaultdict(int)
        self._closed = False
        self._pages = PageWriter(db, backend, strings, part_limit, now)

    async def write_agenda(self, debate: Debate) -> None:
        """Queue the Agenda page."""
        content = render_agenda(debate, self._t)
        await self._enqueue(debate, WikiPage.AGENDA, f"{debate.id}:agenda", Mode.REPLACE, content)

    async def write_working_document(self, debate: Debate, turn: int) -> None:
        """Queue the Working-Document as it stands after `turn`."""
        key = f"{debate.id}:working-document:{turn}"
        content = render_working_document(debate, self._t)
        await self._enqueue(debate, WikiPage.WORKING_DOCUMENT, key, Mode.REPLACE, content)

    async def append_round_log(self, debate: Debate, turn: Turn, message_url: str) -> None:
        """Queue the turn's section at the end of the Round-Log (once, even after a crash)."""
        key = f"{debate.id}:round-log:{turn.number}"
        section = render_round_section(turn, message_url, key, self._t, debate)
        # A section longer than half a part is cut into pieces, each its own entry.
        for piece_key, content in pieces(section, key, self._part_limit // 2):
            await self._enqueue(debate, WikiPage.ROUND_LOG, piece_key, Mode.APPEND, content)

    async def append_round_note(
        self, debate: Debate, key: str, what: str, who: str, text: str
    ) -> None:
        """Queue a moderator's note or the people's words at the end of the Round-Log (once)."""
        dedup = f"{debate.id}:round-log:{key}"
        section = render_round_note(what, who, text, dedup, self._t)
        await self._enqueue(debate, WikiPage.ROUND_LOG, dedup, Mode.APPEND, section)

    async def write_conclusion(self, debate: Debate, conclusion: Conclusion) -> None:
        """Queue the Conclusion page."""
        content = render_conclusion(debate, conclusion, self._t)
        key = f"{debate.id}:conclusion"
        await self._enqueue(debate, WikiPage.CONCLUSION, key, Mode.REPLACE, content)

    async def write_page(self, debate: Debate, page: str, title: str, markdown: str) -> None:
        """Queue a format's page (`turns/01-ag`, `front-page`, `concepts.svg`, ...), replaced
        as a whole, a person's edit kept (a file such as the diagram is the bot's alone); the
        same content queued again (a repeat after a crash) is written once."""
        if not page.endswith(ASSET_SUFFIXES):  # its links to the files beside it as served
            own = self.path_of(debate, page)
            content = link_assets(fill_keys(markdown, self._t), own, self._backend.asset_link)
        elif getattr(self._backend, "holds_assets", False):
            content = markdown
        else:  # a wiki that keeps pages only: the diagram's source is kept as a page beside them
            stem, _, suffix = page.rpartition(".")
            page, content = f"{stem}-{suffix}", f"```xml\n{markdown}\n```\n"
        path = self.path_of(debate, page)
        title = fill_keys(title, self._t)[:MAX_TITLE_CHARS]
        key = f"{debate.id}:page:{page}:{content_hash(content)[:16]}"
        await self._store(Entry(0, debate.id, key, path, title, Mode.REPLACE, content, 0))

    def page_url(self, debate: Debate, page: str) -> str:
        """Where a person reads the page: an http(s) or file:// URL, percent-encoded."""
        return self._backend.url(self.path_of(debate, page))

    def path_of(self, debate: Debate, page: str) -> str:
        """`{root}/{slug}/{page}`; the slug comes from the debate id and topic, so it is stable."""
        slug = topic_slug(debate.id, debate.proposal.topic, self._root)
        return page_path(self._root, slug, page)

    async def start(self) -> None:
        """Resume every debate's pending writes (after a restart)."""
        self._closed = False
        for row in await self._db.fetch_all(SELECT_PENDING_DEBATES):
            self._kick(int(row["debate_id"]))

    async def drained(self, debate_id: int | None = None) -> None:
        """Return once the writers (of one debate, or all) have nothing left to do."""
        while True:
            tasks = [
                task
                for owner, task in self._writers.items()
                if debate_id is None or owner == debate_id
            ]
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def pending(self, debate_id: int) -> int:
        """How many of the debate's writes have not landed yet."""
        row = await self._db.fetch_one(COUNT_PENDING, (debate_id,))
        return int(row[0]) if row else 0

    async def aclose(self) -> None:
        """Stop the writers (pending rows stay for the next start) and close the backend."""
        self._closed = True
        tasks = list(self._writers.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._backend.aclose()

    async def _enqueue(
        self, debate: Debate, page: WikiPage, key: str, mode: Mode, content: str
    ) -> None:
        title = page_title(debate.proposal.topic, page, self._t)
        path = self.path_of(debate, page.value)
        await self._store(Entry(0, debate.id, key, path, title, mode, content, 0))

    async def _store(self, entry: Entry) -> None:
        """Queue the entry in `wiki_outbox`, then hand it to the debate's writer as stored."""
        row = (entry.debate_id, entry.dedup_key, entry.path, entry.title, entry.mode.value)
        created = self._now().isoformat()
        entry_id = await self._db.insert(INSERT_ENTRY, (*row, entry.content, created))
        # None: queued before (a repeat after a crash); the writer finds it in the table.
        self._kick(entry.debate_id, None if entry_id is None else replace(entry, id=entry_id))

    def resume(self, debate_id: int) -> None:
        """Apply the debate's pending writes (this process just claimed the debate)."""
        self._kick(debate_id)

    def _kick(self, debate_id: int, stored: Entry | None = None) -> None:
        if stored is None:
            self._unhanded[debate_id] += 1
        if self._closed or not self._owns(debate_id):
            return  # the row waits in the table for the process that writes the debate
        if stored is not None:
            self._handed[debate_id].append(stored)
        task = self._writers.get(debate_id)
        if task is None or task.done():
            name = f"wiki-writer-{debate_id}"
            self._writers[debate_id] = asyncio.create_task(self._writer(debate_id), name=name)

    async def _writer(self, debate_id: int) -> None:
        try:
            await self._write_all(debate_id)
        finally:
            if self._writers.get(debate_id) is asyncio.current_task():
                del self._writers[debate_id]

    async def _write_all(self, debate_id: int) -> None:
        """Apply the debate's entries in order until none is left: those in the table first,
        then those queued since, as they were handed over (one handed over while the table
        was read came with the read: it is not applied twice)."""
        delay: _Delay | None = None
        after, read, seen = 0, True, 0
        while True:
            if read:  # the table holds every entry handed over so far: they come with it
                self._handed.pop(debate_id, None)
                seen = self._unhanded[debate_id]
                rows = await self._db.fetch_all(SELECT_NEXT, (debate_id, after, BATCH))
                entries, more = [Entry.of(row) for row in rows], len(rows) == BATCH
            else:
                handed = self._handed.pop(debate_id, [])
                entries, more = [entry for entry in handed if entry.id > after], False
            if delay is None:
                delay = _Delay(announced=bool(entries) and entries[0].attempts >= NOTICE_AFTER)
            from_table, read = read, more or self._unhanded[debate_id] != seen
            if not entries and not read and not self._handed.get(debate_id):
                break  # all landed, and nothing was queued since
            if not self._owns(debate_id):
                return  # the lease is lost: the process that claims the debate writes on
            landed, failed = await self._attempt_batch(entries, delay)
            if failed is not None:  # after its wait, it is read again with what follows it
                after, read = failed - 1, True
            elif from_table and landed:
                after = landed[-1]
        if delay.announced:
            await self._say(debate_id, "wiki.caught_up", {"count": str(delay.landed)})

    async def _attempt_batch(
        self, entries: list[Entry], delay: _Delay
    ) -> tuple[list[int], int | None]:
        """Apply entries in order until one fails; the ids that landed, and the one that did
        not (None if none failed)."""
        done: list[int] = []
        for entry in entries:
            if not self._owns(entry.debate_id):  # checked before each write
                return done, entry.id
            if not await self._attempt(entry, delay):
                return done, entry.id
            done.append(entry.id)
        return done, None

    async def _attempt(self, entry: Entry, delay: _Delay) -> bool:
        """Apply one entry; False if it failed and is to be tried again."""
        try:
            human_edit = await self._pages.land(entry)
        except WikiError as exc:
            if exc.code in PERMANENT:
                await self._give_up(entry, exc)
                return True
            await self._failed(entry, delay, f"{exc.code}: {exc.message}")
            return False
        except Exception as exc:  # boundary: one bad write must not stop the debate's writer
            log.exception("wiki write %s failed unexpectedly", entry.dedup_key)
            await self._failed(entry, delay, type(exc).__name__)
            return False
        if delay.announced:
            delay.landed += 1
        if human_edit:
            params = {"page": self._label(entry.path), "url": self._backend.url(entry.path)}
            await self._say(entry.debate_id, "wiki.human_edit_kept", params)
        return True

    async def _failed(self, entry: Entry, delay: _Delay, reason: str) -> None:
        attempts = entry.attempts + 1
        wait = backoff(attempts, self._first_backoff, self._max_backoff)
        retry_at = (self._now() + timedelta(seconds=wait)).isoformat()
        await self._db.execute(RECORD_FAILURE, (attempts, shorten(reason, 500), retry_at, entry.id))
        log.warning("wiki write %s failed (attempt %d): %s", entry.dedup_key, attempts, reason)
        if attempts >= NOTICE_AFTER and not delay.announced:
            delay.announced = True
            count = await self.pending(entry.debate_id)
            await self._say(entry.debate_id, "wiki.delayed", {"count": str(count)})
        await self._sleep(wait)

    async def _give_up(self, entry: Entry, exc: WikiError) -> None:
        reason = shorten(f"{exc.code}: {exc.message}", 500)
        await self._db.execute(GIVE_UP, (self._now().isoformat(), reason, entry.id))
        log.error("wiki write %s refused for good: %s", entry.dedup_key, reason)
        params = {"page": self._label(entry.path), "reason": shorten(exc.message, 300)}
        await self._say(entry.debate_id, "wiki.write_refused", params)

    def _label(self, path: str) -> str:
        """A page's display name: the engine's four by name, a format's page by its path."""
        last = path.rsplit("/", 1)[-1]
        if last in {page.value for page in WikiPage}:
            return page_label(WikiPage(last), self._t)
        return last

    async def _say(self, debate_id: int, key: str, params: dict[str, str]) -> None:
        try:
            await self._notify(debate_id, key, params)
        except Exception:  # boundary: a thread that cannot be told must not stall the writes
            log.exception("could not tell debate %d %s", debate_id, key)
