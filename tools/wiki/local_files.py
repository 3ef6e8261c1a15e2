"""The local wiki's files on disk: whole-page writes, each on disk (flushed) before it is
reported done.

Everything runs on the event loop but the flush, the one call that waits for the disk: it goes
to a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path


async def write_atomically(file: Path, text: str, mode: int) -> os.stat_result:
    """Write the whole file under a temporary name beside it, flush it to disk, then rename it
    over the page: a crash leaves the old page or the new one, never a part of either."""
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-", suffix=".md")
    try:
        try:
            data = memoryview(text.encode("utf-8"))
            while data:  # a write may take part of the bytes
                data = data[os.write(fd, data) :]
            os.fchmod(fd, mode)  # mkstemp makes 0600; a wiki page is for reading
            stat = os.fstat(fd)
        except BaseException:
            os.close(fd)
            raise
        # the thread runs to the end (the file closed) even if the caller is cancelled
        await asyncio.to_thread(_sync_and_close, fd)
        os.replace(tmp, file)  # noqa: PTH105  # atomic rename, same as Path.replace
    except BaseException:
        _remove(tmp)
        raise
    return stat  # a rename changes neither the file's inode, size nor time


def _remove(tmp: str) -> None:
    Path(tmp).unlink(missing_ok=True)


def cannot_write(root: Path) -> str:
    """Why this user could not make and write the folder `root` ('' if it could), asked of
    the file system without writing anything: the folder itself, or the nearest folder
    above it that exists."""
    existing = root
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a folder"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{existing} is not writable by this user"
    return ""


def probe_writable(root: Path) -> None:
    """Create the folder if needed and a file in it; OSError if either cannot be done."""
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=root):
        pass


def _sync_and_close(fd: int) -> None:
    try:
        os.fsync(fd)
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
