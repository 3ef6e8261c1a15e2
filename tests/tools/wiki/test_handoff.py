"""Entries queued while the debate's writer runs, waits or belongs to another process: every
entry lands once, in order, whatever happens between."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.effects import logged
from tests.tools.wiki.support import WAIT, ControlledSleep, OutboxFactory, debate, turn
from tools.wiki.backends import LocalWiki, StoredPage, WikiError

ROUND_LOG = "debates/7-캐시-계층-선택-redis-vs-in-process-lru/round-log"


def _url(n: int) -> str:
    return f"https://discord.com/channels/1/2/{1000 + n}"


def _order(wiki: LocalWiki, texts: list[str]) -> list[int]:
    file = wiki.file_of(ROUND_LOG)
    content = file.read_text(encoding="utf-8")
    assert all(content.count(text) == 1 for text in texts), content  # each entry once
    return [content.index(text) for text in texts]


class _Gated:
    """The local wiki, whose writes wait until the gate opens (the writer is busy meanwhile)."""

    def __init__(self, inner: LocalWiki) -> None:
        self.inner = inner
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()

    async def write(
        self, path: str, title: str, content: str, current: StoredPage | None
    ) -> StoredPage:
        self.waiting.set()
        await self.gate.wait()
        return await self.inner.write(path, title, content, current)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def test_entries_queued_while_the_writer_runs_land_once_in_order(
    make_outbox: OutboxFactory, tmp_path: Path
) -> None:
    wiki = LocalWiki(tmp_path / "wiki")
    backend = _Gated(wiki)
    outbox = make_outbox(backend)
    texts = [f"발언 {n}번의 전문" for n in range(1, 7)]
    await outbox.write(debate(), *logged(turn(1, texts[0]), _url(1)))
    await asyncio.wait_for(backend.waiting.wait(), WAIT)  # the writer is landing the first
    for n, text in enumerate(texts[1:], 2):
        await outbox.write(debate(), *logged(turn(n, text), _url(n)))
    backend.gate.set()
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert await outbox.pending(7) == 0
    order = _order(wiki, texts)
    assert order == sorted(order)


async def test_a_debate_claimed_later_has_its_entries_read_from_the_table(
    make_outbox: OutboxFactory, tmp_path: Path
) -> None:
    """Entries queued while another process writes the debate wait: once this process claims
    it, its writer reads them (and the ones queued after come in order)."""
    owned = [False]
    wiki = LocalWiki(tmp_path / "wiki")
    outbox = make_outbox(wiki, owns=lambda _debate_id: owned[0])
    texts = [f"발언 {n}번의 전문" for n in range(1, 5)]
    for n, text in enumerate(texts[:2], 1):
        await outbox.write(debate(), *logged(turn(n, text), _url(n)))
    assert await outbox.pending(7) == 2
    assert not wiki.file_of(ROUND_LOG).exists()  # no writer of its own yet
    owned[0] = True
    outbox.resume(7)
    for n, text in enumerate(texts[2:], 3):
        await outbox.write(debate(), *logged(turn(n, text), _url(n)))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert await outbox.pending(7) == 0
    order = _order(wiki, texts)
    assert order == sorted(order)


class _FailsFirst:
    """The local wiki, whose first write fails as an unreachable wiki's would."""

    def __init__(self, inner: LocalWiki) -> None:
        self.inner = inner
        self.failed = asyncio.Event()

    async def write(
        self, path: str, title: str, content: str, current: StoredPage | None
    ) -> StoredPage:
        if not self.failed.is_set():
            self.failed.set()
            raise WikiError("io", "the wiki is unreachable")
        return await self.inner.write(path, title, content, current)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def test_entries_queued_during_a_retry_land_after_the_failed_one(
    make_outbox: OutboxFactory, tmp_path: Path
) -> None:
    wiki = LocalWiki(tmp_path / "wiki")
    backend = _FailsFirst(wiki)
    sleep = ControlledSleep(open_=False)
    outbox = make_outbox(backend, sleep=sleep)
    texts = [f"발언 {n}번의 전문" for n in range(1, 5)]
    await outbox.write(debate(), *logged(turn(1, texts[0]), _url(1)))
    await asyncio.wait_for(backend.failed.wait(), WAIT)
    for n, text in enumerate(texts[1:], 2):  # queued while the first one waits to be retried
        await outbox.write(debate(), *logged(turn(n, text), _url(n)))
    await sleep.open()
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert await outbox.pending(7) == 0
    order = _order(wiki, texts)
    assert order == sorted(order)
