"""Landing one outbox entry on its page: the page read as the wiki holds it now, the entry
merged in (tools.wiki.merge), written, and recorded done with the hash of what was written."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from tools.store.wiki_outbox import Entry, LandedPages
from tools.wiki.backends import ASSET_SUFFIXES, WikiBackend, WikiError
from tools.wiki.merge import Mode, content_hash, plan_write
from tools.wiki.pages import Translate
from tools.wiki.round_log import is_round_log, target_part

FOLDER_TAKEN = "folder_taken"  # a WikiError's code: the path holds another debate's page


class PageWriter:
    """Lands entries on their pages (only a debate's one writer writes its pages)."""

    def __init__(
        self,
        landed: LandedPages,
        backend: WikiBackend,
        part_limit: int,
        now: Callable[[], datetime],
    ) -> None:
        self._landed = landed
        self._backend = backend
        self._part_limit = part_limit
        self._now = now

    async def land(self, entry: Entry, t: Translate) -> bool:
        """Write one entry and record it done, the words it adds (a Round-Log's first line, a
        part's title and links) in `t`: the debate's language; True if a person's edit was
        found (and kept)."""
        # A file such as the diagram is the bot's alone (no person's edit to keep in it): it is
        # written as it is, unread.
        current = None
        if entry.mode == Mode.APPEND and is_round_log(entry.path):
            found = await target_part(
                self._backend,
                entry.path,
                entry.title,
                entry.dedup_key,
                entry.content,
                self._part_limit,
                t,
            )
            entry = replace(entry, path=found.path, title=found.title, content=found.content)
            current = found.page  # the part was just read
        elif not entry.path.endswith(ASSET_SUFFIXES):
            current = await self._backend.read(entry.path)
        # what the bot last wrote there, to tell a person's edit (a new page has none)
        known = None if current is None else await self._known_hash(entry.path)
        plan = plan_write(
            Mode(entry.mode),
            entry.content,
            entry.dedup_key,
            current.content if current else None,
            known,
            t,
        )
        if known is None and await self._taken(entry, current is not None and plan.human_edit):
            raise WikiError(FOLDER_TAKEN, entry.path)
        if plan.content is None and current is not None:
            written = current.content  # it landed before a crash
        else:
            written = plan.content or entry.content
            await self._backend.write(entry.path, entry.title, written, current)
        now = self._now().isoformat()
        await self._landed.done(entry.id, now, entry.path, content_hash(written))
        return plan.human_edit

    async def _taken(self, entry: Entry, differs: bool) -> bool:
        """Whether a page this database never wrote is in another debate's folder (a database
        sharing the wiki): the page there differs from the debate's first write, or the folder
        was found taken before. Asked only of a page new to this database, never of ours."""
        landed, refused = await self._landed.folder_state(entry.debate_id)
        return refused > 0 or (differs and landed == 0)

    async def _known_hash(self, path: str) -> str | None:
        """The recorded hash of what the bot last wrote to the page, or None if it never did."""
        return await self._landed.known_hash(path)
