"""The local wiki's flushes to disk: each file flushed and closed, a failure its writer's error."""

from __future__ import annotations

import asyncio
import errno
import os
from pathlib import Path

import pytest

from tests.tools.wiki.support import WAIT
from tools.wiki.local_files import flush


def _open_files(folder: Path, count: int) -> list[int]:
    return [
        os.open(folder / f"page-{n}.md", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        for n in range(count)
    ]


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


async def test_a_failed_flush_is_its_own_writer_s_error_and_every_file_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fds = _open_files(tmp_path, 3)
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if fd == fds[1]:
            raise OSError(errno.EIO, "disk gone")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    outcomes = await asyncio.wait_for(
        asyncio.gather(*(flush(fd) for fd in fds), return_exceptions=True), WAIT
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], OSError) and outcomes[1].errno == errno.EIO
    assert not any(_is_open(fd) for fd in fds)
