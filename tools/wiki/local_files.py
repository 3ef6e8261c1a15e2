"""The local wiki's files on disk: reads, appends and whole-page writes, each on disk (flushed)
before it is reported done.

Everything runs on the event loop but the flush, the one call that waits for the disk: it goes
to a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path

Signature = tuple[int, int, int]  # a file's (mtime in ns, size, inode): changed if any differs


def signature(file: Path) -> Signature | None:
    """The file's signature, or None if it cannot be read."""
    try:
        stat = file.stat()
    except OSError:
        return None
    return signature_of(stat)


def signature_of(stat: os.stat_result) -> Signature:
    """The signature in a stat."""
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def read_text(file: Path) -> tuple[str, os.stat_result | None]:
    """The file's text and its stat; None for the stat when the text is not all of the file."""
    with file.open("rb") as handle:
        data = handle.read()
        stat = os.fstat(handle.fileno())
    try:
        return data.decode("utf-8"), stat
    except UnicodeDecodeError as exc:
        if exc.end != len(data) or exc.reason != "unexpected end of data":
            raise
        # An append cut short by a crash can end mid-character: the text up to it is what
        # landed (the outbox writes the entry again, whole, over the whole file).
        return data[: exc.start].decode("utf-8"), None


async def append(file: Path, tail: str, expected: Signature) -> os.stat_result | None:
    """Append `tail` to the file and flush it to disk; None (nothing written) if the file is
    no longer the one last read or written (`expected`)."""
    written = _append_unflushed(file, tail, expected)
    if written is None:
        return None
    fd, stat = written
    await flush(fd)
    return stat


def _append_unflushed(
    file: Path, tail: str, expected: Signature
) -> tuple[int, os.stat_result] | None:
    """The append itself: the open file and its stat after the write (a flush changes neither
    its size nor its time), or None when the file is not the one expected."""
    try:
        fd = os.open(file, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        return None
    try:
        if signature_of(os.fstat(fd)) != expected:
            os.close(fd)
            return None
        _write_all(fd, tail.encode("utf-8"))
        return fd, os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise


async def write_atomically(file: Path, text: str, mode: int) -> os.stat_result:
    """Write the whole file under a temporary name, flush it to disk, then rename it over the
    page: a crash leaves the old page or the new one, never a part of either."""
    fd, tmp, stat = _write_unflushed(file, text, mode)
    try:
        await flush(fd)
        os.replace(tmp, file)  # noqa: PTH105  # atomic rename, same as Path.replace
    except BaseException:
        _remove(tmp)
        raise
    return stat  # a rename changes neither the file's inode, size nor time


def _write_unflushed(file: Path, text: str, mode: int) -> tuple[int, str, os.stat_result]:
    """The new page in a temporary file beside it: the open file, its name, its stat."""
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-", suffix=".md")
    try:
        _write_all(fd, text.encode("utf-8"))
        os.fchmod(fd, mode)  # mkstemp makes 0600; a wiki page is for reading
        return fd, tmp, os.fstat(fd)
    except BaseException:
        os.close(fd)
        _remove(tmp)
        raise


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte (a write may take part of them)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _remove(tmp: str) -> None:
    Path(tmp).unlink(missing_ok=True)


def probe_writable(root: Path) -> None:
    """Create the folder if needed and a file in it; OSError if either cannot be done."""
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=root):
        pass


async def flush(fd: int) -> None:
    """Flush the open file `fd` to disk in a worker thread, then close it; OSError if the flush
    failed. The thread runs to the end even if the caller is cancelled: the file is closed."""
    await asyncio.to_thread(_sync_and_close, fd)


def _sync_and_close(fd: int) -> None:
    try:
        os.fsync(fd)
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
