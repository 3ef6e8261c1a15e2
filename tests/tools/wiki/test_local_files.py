"""The local wiki's writes to disk: each file flushed and closed, a failed flush its own write's
error (the page keeps what it held, no temporary file is left)."""

from __future__ import annotations

import asyncio
import errno
import os
from pathlib import Path

import pytest

from tests.tools.wiki.support import WAIT
from tools.wiki.local_files import write_atomically


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


async def test_a_failed_flush_is_its_own_write_s_error_and_every_file_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = [tmp_path / f"page-{n}.md" for n in range(3)]
    flushed: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        flushed.append(fd)
        if os.pread(fd, 16, 0) == b"page 1":
            raise OSError(errno.EIO, "disk gone")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    writes = (write_atomically(file, f"page {n}", 0o644) for n, file in enumerate(files))
    outcomes = await asyncio.wait_for(asyncio.gather(*writes, return_exceptions=True), WAIT)
    assert isinstance(outcomes[0], os.stat_result) and isinstance(outcomes[2], os.stat_result)
    assert isinstance(outcomes[1], OSError) and outcomes[1].errno == errno.EIO
    assert len(flushed) == 3 and not any(_is_open(fd) for fd in flushed)
    assert [file.exists() for file in files] == [True, False, True]
    assert files[2].read_text(encoding="utf-8") == "page 2"
    assert not list(tmp_path.glob(".tmp-*"))
