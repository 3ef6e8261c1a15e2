"""LocalWiki's files on disk."""

from __future__ import annotations

import asyncio
import os
import stat
import threading
from pathlib import Path

import pytest

from tests.tools.wiki.support import WAIT
from tools.wiki.backends import LocalWiki


async def test_pages_are_readable_like_any_file_written_here(tmp_path: Path) -> None:
    wiki = LocalWiki(tmp_path)
    await wiki.write("debates/1-x/agenda", "제목", "# 본문", None)
    files = [p for p in tmp_path.rglob("*.md") if not p.name.startswith(".tmp-")]
    assert len(files) == 1
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o666 & ~mask


BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"


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
