"""The local wiki's flushes to disk: grouped into one worker trip, each with its own outcome."""

from __future__ import annotations

import asyncio
import errno
import os
import threading
from pathlib import Path

import pytest

from tests.tools.wiki.support import WAIT
from tools.wiki import local_files
from tools.wiki.local_files import Flusher


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


async def test_files_handed_over_during_a_trip_are_flushed_together_in_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trips: list[list[int]] = []
    first_trip, release = threading.Event(), threading.Event()
    real = local_files._sync_and_close

    def counted(fds: list[int]) -> list[OSError | None]:
        trips.append(list(fds))
        first_trip.set()
        release.wait(WAIT)  # the first trip is under way while the others are handed over
        return real(fds)

    monkeypatch.setattr(local_files, "_sync_and_close", counted)
    flusher = Flusher()
    first, *rest = _open_files(tmp_path, 20)
    flushes = [asyncio.create_task(flusher.flush(first))]
    assert await asyncio.to_thread(first_trip.wait, WAIT)
    flushes += [asyncio.create_task(flusher.flush(fd)) for fd in rest]
    await asyncio.sleep(0)  # each of them is queued
    release.set()
    await asyncio.wait_for(asyncio.gather(*flushes), WAIT)
    assert trips == [[first], rest]  # two hand-offs for twenty files
    assert not any(_is_open(fd) for fd in (first, *rest))


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
    flusher = Flusher()
    outcomes = await asyncio.wait_for(
        asyncio.gather(*(flusher.flush(fd) for fd in fds), return_exceptions=True), WAIT
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], OSError) and outcomes[1].errno == errno.EIO
    assert not any(_is_open(fd) for fd in fds)
