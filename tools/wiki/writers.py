"""The outbox's writers: one task per debate applies the debate's `wiki_outbox` entries in
order to a backend, retrying with backoff until each lands, and tells the thread of a delay,
a refusal or a person's edit kept. The words they add to a page (the Round-Log's first line,
its parts' titles and links, a person's-edit heading) are in the debate's own language."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from handlers.core.i18n import Strings
from handlers.core.model import Debate, WikiPage
from handlers.core.shorten import shorten
from handlers.core.turns.backoff import delay_s
from handlers.core.wiki.events import WikiNews, WikiReported
from tools.store.wiki_outbox import Entry, LandedPages, OutboxQueue
from tools.wiki.backends import WikiBackend, WikiError
from tools.wiki.landing import FOLDER_TAKEN, PageWriter
from tools.wiki.pages import page_label

log = logging.getLogger(__name__)

# Where the outbox's news about a debate's pages goes: the engine, which tells the thread.
Report = Callable[[int, WikiReported], Awaitable[None]]
Sleep = Callable[[float], Awaitable[None]]
DebateOf = Callable[[int], Awaitable[Debate]]

NOTICE_AFTER = 2  # failed attempts before the thread hears of a delay: one blip is not news
# Refusals that no retry can change (too large, an illegal path): the write is given up, the
# thread is told, and the debate's later writes go on. The text stays in SQLite (turns).
PERMANENT = frozenset({"too_large", "6004", "6005", "6006", "http_400", FOLDER_TAKEN})
BATCH = 8  # entries read at once


@dataclass
class _Delay:
    """One writer run's delay state: announced to the thread, and writes landed since."""

    announced: bool
    landed: int = 0


class OutboxWriters:
    """One writer per debate, applying its queued entries in order until each lands (the
    outbox, tools.wiki.outbox, queues them)."""

    def __init__(
        self,
        queue: OutboxQueue,
        landed: LandedPages,
        backend: WikiBackend,
        *,
        strings: Strings,
        notify: Report,
        sleep: Sleep,
        now: Callable[[], datetime],
        first_backoff_s: float,
        max_backoff_s: float,
        part_limit: int,
        owns: Callable[[int], bool],
        debate_of: DebateOf | None = None,
    ) -> None:
        self._queue = queue
        self._backend = backend
        self._t = strings
        self._notify = notify
        self._sleep = sleep
        self._now = now
        self._first_backoff = first_backoff_s
        self._max_backoff = max_backoff_s
        self._owns = owns
        self._debate_of = debate_of  # the debate, for its language (None: `strings` for all)
        # A debate's language is fixed when it is proposed: looked up once per debate.
        self._spoken: dict[int, Strings] = {}
        self._writers: dict[int, asyncio.Task[None]] = {}
        # Kicks per debate: one that came while its writer read the table sends it to read again.
        self._kicks: defaultdict[int, int] = defaultdict(int)
        self._closed = False
        self._pages = PageWriter(landed, backend, part_limit, now)

    async def start(self) -> None:
        """Resume every debate's pending writes (after a restart)."""
        self._closed = False
        for debate_id in await self._queue.debates_pending():
            self.resume(debate_id)

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
        return await self._queue.pending(debate_id)

    async def aclose(self) -> None:
        """Stop the writers (pending rows stay for the next start) and close the backend."""
        self._closed = True
        tasks = list(self._writers.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._backend.aclose()

    def resume(self, debate_id: int) -> None:
        """Apply the debate's pending writes: start its writer unless it runs (a running one
        reads the table again), e.g. after a write is queued or this process claimed it."""
        self._kicks[debate_id] += 1
        if self._closed or not self._owns(debate_id):
            return  # the row waits in the table for the process that writes the debate
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
        """Apply the debate's entries in order, a batch read from the table at a time, until
        none is left and nothing was queued since the last read."""
        delay: _Delay | None = None
        after = 0
        t = await self._strings_of(debate_id)
        while True:
            seen = self._kicks[debate_id]
            entries = await self._queue.next(debate_id, after, BATCH)
            if delay is None:
                delay = _Delay(announced=bool(entries) and entries[0].attempts >= NOTICE_AFTER)
            if not entries:
                if self._kicks[debate_id] == seen:
                    break  # all landed, and nothing was queued since
                continue
            if not self._owns(debate_id):
                return  # the lease is lost: the process that claims the debate writes on
            # a failed entry is read again, after its wait, with what follows it
            after = await self._attempt_batch(entries, delay, t)
        if delay.announced:
            await self._say(debate_id, "caught_up", {"count": str(delay.landed)})

    async def _strings_of(self, debate_id: int) -> Strings:
        """The words of the debate's own language."""
        if debate_id not in self._spoken:
            debate = None if self._debate_of is None else await self._debate_of(debate_id)
            self._spoken[debate_id] = self._t if debate is None else self._t.of(debate)
        return self._spoken[debate_id]

    async def _attempt_batch(self, entries: list[Entry], delay: _Delay, t: Strings) -> int:
        """Apply entries in order until one fails or the lease is lost (checked before each
        write); the id to read on after: the last entry's, or just below the one not landed."""
        for entry in entries:
            if not self._owns(entry.debate_id) or not await self._attempt(entry, delay, t):
                return entry.id - 1
        return entries[-1].id

    async def _attempt(self, entry: Entry, delay: _Delay, t: Strings) -> bool:
        """Apply one entry, its words in `t`; False if it failed and is to be tried again."""
        try:
            human_edit = await self._pages.land(entry, t)
        except WikiError as exc:
            if exc.code in PERMANENT:
                await self._give_up(entry, exc, t)
                return True
            await self._failed(entry, delay, f"{exc.code}: {exc.message}", exc.code == "io")
            return False
        except Exception as exc:  # boundary: one bad write must not stop the debate's writer
            log.exception("wiki write %s failed unexpectedly", entry.dedup_key)
            await self._failed(entry, delay, type(exc).__name__)
            return False
        if delay.announced:
            delay.landed += 1
        if human_edit:
            params = {"page": _label(entry.path, t), "url": self._backend.url(entry.path)}
            await self._say(entry.debate_id, "human_edit_kept", params)
        return True

    async def _failed(self, entry: Entry, delay: _Delay, reason: str, local: bool = False) -> None:
        """Record a failed write and wait before the next; the people are told after a few,
        or at once when the local folder cannot be written (no waiting fixes that)."""
        attempts = entry.attempts + 1
        wait = delay_s(attempts - 1, self._first_backoff, self._max_backoff)
        retry_at = (self._now() + timedelta(seconds=wait)).isoformat()
        await self._queue.failed(entry.id, attempts, shorten(reason, 500), retry_at)
        log.warning("wiki write %s failed (attempt %d): %s", entry.dedup_key, attempts, reason)
        if (attempts >= NOTICE_AFTER or local) and not delay.announced:
            delay.announced = True
            said = {"count": str(await self.pending(entry.debate_id))}
            if local:
                said["reason"] = shorten(reason.removeprefix("io: "), 300)
            await self._say(entry.debate_id, "unwritable" if local else "delayed", said)
        await self._sleep(wait)

    async def _give_up(self, entry: Entry, exc: WikiError, t: Strings) -> None:
        reason = shorten(f"{exc.code}: {exc.message}", 500)
        await self._queue.give_up(entry.id, self._now().isoformat(), reason)
        log.error("wiki write %s refused for good: %s", entry.dedup_key, reason)
        said = t("wiki.folder_taken") if exc.code == FOLDER_TAKEN else exc.message
        params = {"page": _label(entry.path, t), "reason": shorten(said, 300)}
        await self._say(entry.debate_id, "write_refused", params)

    async def _say(self, debate_id: int, what: WikiNews, params: dict[str, str]) -> None:
        try:
            await self._notify(debate_id, WikiReported(what, tuple(params.items())))
        except Exception:  # boundary: a thread that cannot be told must not stall the writes
            log.exception("could not tell debate %d %s", debate_id, what)


def _label(path: str, t: Strings) -> str:
    """A page's display name: the engine's four by name, a format's page by its path."""
    last = path.rsplit("/", 1)[-1]
    if last in {page.value for page in WikiPage}:
        return page_label(WikiPage(last), t)
    return last
