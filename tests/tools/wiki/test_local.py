"""LocalWiki's files on disk."""

from __future__ import annotations

import asyncio
import os
import stat
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.effects import logged
from tests.tools.wiki.support import WAIT, Notices, OutboxFactory, debate, turn
from tools.store.db import Database
from tools.wiki.backends import LocalWiki
from tools.wiki.merge import PageHash, content_hash


async def test_pages_are_readable_like_any_file_written_here(tmp_path: Path) -> None:
    wiki = LocalWiki(tmp_path)
    await wiki.write("debates/1-x/agenda", "제목", "# 본문", None)
    files = [p for p in tmp_path.rglob("*.md") if not p.name.startswith(".tmp-")]
    assert len(files) == 1
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o666 & ~mask


BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"


def url(n: int) -> str:
    return f"https://discord.com/channels/1/2/{1000 + n}"


async def test_a_round_log_entry_is_appended_to_the_file_in_place(
    tmp_path: Path, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(LocalWiki(tmp_path))
    file = tmp_path / f"{BASE}/round-log.md"
    await outbox.write(debate(), *logged(turn(1, "첫 발언 전문"), url(1)))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    first = file.read_text(encoding="utf-8")
    inode = file.stat().st_ino

    await outbox.write(debate(), *logged(turn(2, "두 번째 발언 전문 " * 400), url(2)))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert file.stat().st_ino == inode  # appended, not rewritten through a new file
    text = file.read_text(encoding="utf-8")
    assert text.startswith(first.rstrip()) and text.count("두 번째 발언 전문") == 400
    again = await LocalWiki(tmp_path).read(f"{BASE}/round-log")  # as a new process reads it
    assert again is not None and again.content == text.split("\n---\n\n", 1)[1]


@pytest.mark.parametrize("cut", [3, 7, 60, -2, -1])  # bytes of the append that landed
async def test_an_append_cut_short_by_a_crash_is_completed_once_and_whole(
    tmp_path: Path, db: Database, make_outbox: OutboxFactory, cut: int
) -> None:
    path = f"{BASE}/round-log"
    file = tmp_path / f"{path}.md"
    first = make_outbox(LocalWiki(tmp_path))
    await first.write(debate(), *logged(turn(1, "첫 발언 전문"), url(1)))
    await asyncio.wait_for(first.drained(7), WAIT)
    await first.aclose()  # the process dies before its writer applies the next entry
    await first.write(debate(), *logged(turn(2, "두 번째 발언 — 끝까지"), url(2)))
    row = await db.fetch_one("SELECT content FROM wiki_outbox WHERE dedup_key = '7:round-log:2'")
    assert row is not None
    entry = str(row["content"])
    before = file.read_bytes()
    whole = before.rstrip() + f"\n\n{entry}".encode()  # the page with the entry appended
    with file.open("ab") as handle:  # the append's first bytes (-2: inside the last character)
        handle.write(whole[len(before) :][:cut])

    notices = Notices()
    second = make_outbox(LocalWiki(tmp_path), notices)
    await second.start()
    await asyncio.wait_for(second.drained(7), WAIT)
    assert await second.pending(7) == 0
    assert file.read_bytes().rstrip() == whole.rstrip()
    assert notices.said == []  # the cut append is the bot's own, not a person's edit


@given(
    page=st.text(alphabet="ab \r\n\t캐", max_size=40),
    entry=st.text(alphabet="ab \r\n\t캐<", max_size=40).filter(str.strip),
)
def test_an_appended_entry_extends_the_page_hash_to_the_whole_page_s(page: str, entry: str) -> None:
    written = f"{page.rstrip()}\n\n{entry}"
    assert PageHash(page).extended(written, entry).hexdigest() == content_hash(written)


class _HeldFlush:
    """os.fsync made to wait until released, and os.close watched, to cancel a write while
    its flush to disk is under way."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered, self.release, self.closed = (threading.Event() for _ in range(3))
        self.fd = -1
        real_fsync, real_close = os.fsync, os.close

        def fsync(fd: int) -> None:
            self.fd = fd
            self.entered.set()
            self.release.wait(WAIT)
            real_fsync(fd)

        def close(fd: int) -> None:
            real_close(fd)
            if fd == self.fd:
                self.closed.set()

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "close", close)


@pytest.mark.parametrize("appending", [False, True])
async def test_a_write_cancelled_while_it_flushes_leaves_no_open_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, appending: bool
) -> None:
    wiki = LocalWiki(tmp_path)
    path = f"{BASE}/round-log"
    current = await wiki.write(path, "제목", "첫 항목", None)
    content = "첫 항목\n\n두 번째 항목" if appending else "새로 쓴 페이지"
    held = _HeldFlush(monkeypatch)
    write = asyncio.create_task(wiki.write(path, "제목", content, current))
    assert await asyncio.to_thread(held.entered.wait, WAIT)
    write.cancel()
    with pytest.raises(asyncio.CancelledError):
        await write
    os.fstat(held.fd)  # the flush still holds the file: nobody closed it under it
    held.release.set()
    assert await asyncio.to_thread(held.closed.wait, WAIT)  # the flush's thread closes it
    with pytest.raises(OSError):
        os.fstat(held.fd)
    page = await LocalWiki(tmp_path).read(path)
    assert page is not None  # the old page or the new one, whole; no temporary file left
    assert page.content in ("첫 항목", content)
    assert not list(tmp_path.rglob(".tmp-*"))
