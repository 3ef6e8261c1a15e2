"""Builders and doubles for the wiki tests: debates, turns, a gated sleep, a crashing backend."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from handlers.core.model import (
    AG,
    CLAUDE,
    Debate,
    Floor,
    Moderation,
    ParsedReply,
    Phase,
    Proposal,
    Setup,
    Turn,
    TurnMeta,
)
from handlers.core.wiki.events import WikiReported
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs
from tools.wiki.backends import LocalWiki, StoredPage, WikiBackend
from tools.wiki.outbox import WikiOutbox
from tools.wiki.wikijs import WikiJsWiki
from tools.wiki.wikijs_assets import served_path

TOPIC = "캐시 계층 선택 — Redis vs in-process LRU"
WAIT = 10.0  # seconds a test waits for something that should happen at once


def debate(debate_id: int = 7, topic: str = TOPIC, working_document: str = "") -> Debate:
    """A running debate with a Korean topic."""
    proposal = Proposal(
        channel_id=1,
        topic=topic,
        question="다음 분기 배포에서 어떤 캐시 계층을 쓸 것인가?",
        reason="열린 결정",
        confidence=0.9,
        context="alice: Redis로 갈지 LRU로 갈지 못 정했네\ncarol: 운영 부담이…",
        people_ids=(101, 102),
    )
    return Debate(
        id=debate_id,
        proposal=proposal,
        phase=Phase.SPEAKING,
        created_at=datetime(2026, 5, 1, 9, 0, tzinfo=UTC),
        setup=Setup(3, started_at=datetime(2026, 5, 1, 9, 1, tzinfo=UTC)),
        floor=Floor(round=1),
        moderation=Moderation(working_document=working_document),
    )


def turn(number: int, text: str, seat: str | None = None, debate_id: int = 7) -> Turn:
    """A stored reply."""
    who = seat or (CLAUDE if number % 2 else AG)
    return Turn(
        debate_id=debate_id,
        number=number,
        round=(number + 1) // 2,
        seat=who,
        text=text,
        raw=text,
        sha256="0" * 64,
        parsed=ParsedReply(opinion=text),
        meta=TurnMeta(model="sonnet" if who is CLAUDE else "gemini-pro"),
        at=datetime(2026, 5, 1, 9, 2 + number, tzinfo=UTC),
    )


OutboxFactory = Callable[..., WikiOutbox]


class ControlledSleep:
    """The outbox's injected sleep: records every wait; each wait needs a permit unless open."""

    def __init__(self, *, open_: bool = True) -> None:
        self.waits: list[float] = []
        self._open = open_
        self._permits = 0
        self._changed = asyncio.Condition()

    async def __call__(self, seconds: float) -> None:
        async with self._changed:
            self.waits.append(seconds)
            self._changed.notify_all()
            await self._changed.wait_for(lambda: self._open or self._permits > 0)
            if not self._open:
                self._permits -= 1

    async def allow(self, count: int) -> None:
        """Let `count` more waits pass."""
        async with self._changed:
            self._permits += count
            self._changed.notify_all()

    async def open(self) -> None:
        """Let every wait pass at once from now on."""
        async with self._changed:
            self._open = True
            self._changed.notify_all()

    async def until(self, count: int) -> None:
        """Return once `count` waits have started."""
        async with asyncio.timeout(WAIT), self._changed:
            await self._changed.wait_for(lambda: len(self.waits) >= count)


@dataclass
class Notices:
    """The outbox's notify callback: what the thread was told."""

    said: list[tuple[int, str, dict[str, str]]] = field(default_factory=list)

    async def __call__(self, debate_id: int, news: WikiReported) -> None:
        self.said.append((debate_id, f"wiki.{news.what}", dict(news.params)))

    def keys(self) -> list[str]:
        return [key for _, key, _ in self.said]


@dataclass
class SeenPage:
    """A page as a person would find it in the wiki."""

    title: str
    content: str
    published: bool


@dataclass
class Site:
    """One wiki to test against: Wiki.js (fake) or a local folder, driven the same way."""

    name: str
    fake: FakeWikiJs | None
    folder: Path

    def backend(self) -> WikiBackend:
        if self.fake is not None:
            return WikiJsWiki(self.fake.url, FULL_KEY)
        return LocalWiki(self.folder)

    def page(self, path: str) -> SeenPage | None:
        if self.fake is not None:
            found = self.fake.page_at(path)
            if found is None:
                return None
            return SeenPage(found.title, found.content, found.is_published)
        file = self.folder / f"{path}.md"
        if not file.exists():
            return None
        head, _, body = file.read_text(encoding="utf-8").partition("\n---\n\n")
        title = json.loads(head.split("title: ", 1)[1])
        return SeenPage(title, body, True)

    def edit_as_person(self, path: str, content: str) -> None:
        if self.fake is not None:
            self.fake.edit_as_person(path, content)
            return
        file = self.folder / f"{path}.md"
        head, _, _ = file.read_text(encoding="utf-8").partition("\n---\n\n")
        file.write_text(f"{head}\n---\n\n{content}", encoding="utf-8")

    def asset(self, path: str) -> bytes | None:
        """The file the wiki holds for `path` (Wiki.js: the asset at its served path)."""
        if self.fake is not None:
            found = self.fake.assets.files.get(served_path(path))
            return found and found.content
        file = self.folder / path
        return file.read_bytes() if file.exists() else None

    def replace_asset_as_person(self, path: str, content: bytes) -> None:
        """A person puts another file in its place (Wiki.js: the asset manager's upload)."""
        if self.fake is not None:
            self.fake.assets.files[served_path(path)].content = content
            return
        (self.folder / path).write_bytes(content)

    def version(self, path: str) -> object:
        """Changes whenever the page is written."""
        if self.fake is not None:
            found = self.fake.page_at(path)
            return found and found.versions
        stat = (self.folder / f"{path}.md").stat()
        return (stat.st_ino, stat.st_mtime_ns)


class SimulatedCrash(BaseException):
    """The process dying: not an Exception, so the product's boundaries do not catch it."""


class CrashAfterWrite:
    """A backend that dies once, right after its `nth` write to `path` landed."""

    def __init__(self, inner: WikiBackend, path: str, nth: int = 1) -> None:
        self.inner = inner
        self.path = path
        self.left = nth

    async def read(self, path: str) -> StoredPage | None:
        return await self.inner.read(path)

    async def write(
        self, path: str, title: str, content: str, current: StoredPage | None
    ) -> StoredPage:
        if self.left <= 0:  # the process is dead: a writer started after it writes nothing
            raise SimulatedCrash(path)
        stored = await self.inner.write(path, title, content, current)
        if path == self.path:
            self.left -= 1
            if self.left == 0:
                raise SimulatedCrash(path)
        return stored

    def url(self, path: str) -> str:
        return self.inner.url(path)

    @property
    def wikijs_callouts(self) -> bool:
        return bool(getattr(self.inner, "wikijs_callouts", False))

    def link(self, page_path: str, target_path: str) -> str:
        return self.inner.link(page_path, target_path)

    async def check(self) -> str:
        return await self.inner.check()

    async def aclose(self) -> None:
        await self.inner.aclose()
