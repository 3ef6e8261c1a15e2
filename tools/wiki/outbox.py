"""The engine's `Wiki` port: each write is stored in `wiki_outbox` first, then one writer per
debate applies the entries in order to a backend, retrying with backoff until each lands
(tools.wiki.writers)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from handlers.core.effects import (
    AppendRoundLog,
    LogNote,
    WikiEffect,
    WriteAgenda,
    WriteConclusion,
    WritePage,
    WriteWorkingDocument,
)
from handlers.core.formats import format_named
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Turn, WikiPage
from handlers.core.record.chain import closing_page, head_block, turn_marker_of
from handlers.ports import NOTHING, Loaded
from tools.store.wiki_outbox import LandedPages, OutboxQueue
from tools.wiki.asset_links import link_assets, wikijs_callouts
from tools.wiki.backends import ASSET_SUFFIXES, WikiBackend
from tools.wiki.merge import Mode, content_hash
from tools.wiki.pages import (
    MAX_TITLE_CHARS,
    page_title,
    render_agenda,
    render_conclusion,
    render_round_note,
    render_round_section,
    render_working_document,
    visible,
)
from tools.wiki.round_log import PART_LIMIT_CHARS, pieces
from tools.wiki.slug import check_root, normalize_root, page_path, topic_slug
from tools.wiki.writers import DebateOf, OutboxWriters, Report, Sleep


class WikiOutbox(OutboxWriters):
    """The debate's pages through a durable queue: nothing lost, in order, once."""

    def __init__(
        self,
        queue: OutboxQueue,
        landed: LandedPages,
        backend: WikiBackend,
        *,
        root: str,
        strings: Strings,
        notify: Report,
        sleep: Sleep,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        first_backoff_s: float = 2.0,
        max_backoff_s: float = 300.0,
        part_limit: int = PART_LIMIT_CHARS,
        owns: Callable[[int], bool] | None = None,
        debate_of: DebateOf | None = None,
    ) -> None:
        check_root(root)
        super().__init__(
            queue,
            landed,
            backend,
            strings=strings,
            notify=notify,
            sleep=sleep,
            now=now,
            first_backoff_s=first_backoff_s,
            max_backoff_s=max_backoff_s,
            part_limit=part_limit,
            # Whose writes this process applies: every debate's, unless processes share them
            # (then only those of the debates it holds the lease of, checked before each write).
            owns=owns or (lambda _debate_id: True),
            # The debate a queued entry is of, for the language of the words a writer adds
            # (a Round-Log's first line, its parts): the engine's, once per debate.
            debate_of=debate_of,
        )
        self._root = normalize_root(root)
        self._part_limit = part_limit

    async def write(self, debate: Debate, effect: WikiEffect, loaded: Loaded = NOTHING) -> None:
        """Queue what `effect` writes, each entry under its key (a repeat is queued once), in
        the debate's language."""
        t = self._t.of(debate)
        match effect:
            case WriteAgenda():
                content = render_agenda(debate, t)
                await self._enqueue(debate, WikiPage.AGENDA, f"{debate.id}:agenda", content)
            case WriteWorkingDocument(turn=turn):
                key = f"{debate.id}:working-document:{turn}"
                content = render_working_document(debate, t)
                await self._enqueue(debate, WikiPage.WORKING_DOCUMENT, key, content)
            case AppendRoundLog():
                await self._round_log(debate, loaded.stored_turn(), loaded.message_url)
            case LogNote(key=key, what=what, who=who, text=text):
                dedup = f"{debate.id}:round-log:{key}"
                section = render_round_note(what, who, text, dedup, t)
                await self._enqueue(debate, WikiPage.ROUND_LOG, dedup, section, Mode.APPEND)
            case WriteConclusion(conclusion=conclusion):
                content = render_conclusion(debate, conclusion, t)
                content += "\n" + head_block(debate, loaded.turns, t)
                key = f"{debate.id}:conclusion"
                await self._enqueue(debate, WikiPage.CONCLUSION, key, content)
            case WritePage(page=page):
                await self._page(debate, page, loaded.title, loaded.markdown, loaded.turns)

    async def _round_log(self, debate: Debate, turn: Turn, message_url: str) -> None:
        """The turn's section at the end of the Round-Log."""
        key, t = f"{debate.id}:round-log:{turn.number}", self._t.of(debate)
        chained = turn_marker_of(turn, t) + "\n"
        section = render_round_section(turn, message_url, key, t, debate, chained)
        # A section longer than half a part is cut into pieces, each its own entry.
        for piece_key, content in pieces(section, key, self._part_limit // 2):
            await self._enqueue(debate, WikiPage.ROUND_LOG, piece_key, content, Mode.APPEND)

    async def _page(
        self, debate: Debate, page: str, title: str, markdown: str, turns: tuple[Turn, ...]
    ) -> None:
        """A format's page (`turns/01-ag`, `front-page`, `concepts.svg`, ...), replaced as a
        whole, a person's edit kept (a file such as the diagram is the bot's alone); the same
        content queued again (a repeat after a crash) is written once. A page's links to the
        pages and files beside it are written as its wiki serves them, its callouts in the
        wiki's syntax; a file is written as it is. The format's closing page ends with the
        record's chain head (handlers.core.record.chain)."""
        path, t = self.path_of(debate, page), self._t.of(debate)
        content = markdown
        if not page.endswith(ASSET_SUFFIXES):
            names = format_named(debate.setup.format).pages(debate)
            pages = {name: self.path_of(debate, name) for name in names}
            content = link_assets(fill_keys(markdown, t), path, pages, self._backend.link)
            if getattr(self._backend, "wikijs_callouts", False):
                content = wikijs_callouts(content)
            if closing_page(debate, page):
                content = f"{content.rstrip()}\n\n{head_block(debate, turns, t)}"
        title = visible(fill_keys(title, t))[:MAX_TITLE_CHARS]
        key = f"{debate.id}:page:{page}:{content_hash(content)[:16]}"
        await self._store(debate.id, key, path, title, Mode.REPLACE, content)

    def page_url(self, debate: Debate, page: str) -> str:
        """Where a person reads the page: an http(s) or file:// URL, percent-encoded."""
        return self._backend.url(self.path_of(debate, page))

    def path_of(self, debate: Debate, page: str) -> str:
        """`{root}/{slug}/{page}`, the slug stable (the debate's id, wiki key and topic)."""
        slug = topic_slug(debate.id, debate.proposal.topic, self._root, debate.setup.wiki_key)
        return page_path(self._root, slug, page)

    async def _enqueue(
        self, debate: Debate, page: WikiPage, key: str, content: str, mode: Mode = Mode.REPLACE
    ) -> None:
        title = page_title(debate.proposal.topic, page, self._t.of(debate))
        path = self.path_of(debate, page.value)
        await self._store(debate.id, key, path, title, mode, content)

    async def _store(
        self, debate_id: int, key: str, path: str, title: str, mode: Mode, content: str
    ) -> None:
        """Queue the entry in `wiki_outbox` (a repeat after a crash is there already), every
        character visible on the page (`visible`), then start the debate's writer."""
        created = self._now().isoformat()
        await self._queue.add(debate_id, key, path, title, mode.value, visible(content), created)
        self.resume(debate_id)
