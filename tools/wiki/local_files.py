"""The local wiki's files on disk: reads, appends and whole-page writes, each on disk (flushed)
before it is reported done.

Everything runs on the event loop but the flush, the one call that waits for the disk: a
`Flusher` sends it to a worker thread, the files written meanwhile in one trip (the figures are
in docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from dataclasses import dataclass
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


async def append(
    file: Path, tail: str, expected: Signature, flusher: Flusher
) -> os.stat_result | None:
    """Append `tail` to the file and flush it to disk; None (nothing written) if the file is
    no longer the one last read or written (`expected`)."""
    written = _append_unflushed(file, tail, expected)
    if written is None:
        return None
    fd, stat = written
    await flusher.flush(fd)
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


async def write_atomically(file: Path, text: str, flusher: Flusher, mode: int) -> os.stat_result:
    """Write the whole file under a temporary name, flush it to disk, then rename it over the
    page: a crash leaves the old page or the new one, never a part of either."""
    fd, tmp, stat = _write_unflushed(file, text, mode)
    try:
        await flusher.flush(fd)
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


@dataclass(frozen=True)
class _Flush:
    """An open file to flush and close, and its writer's wait for that."""

    fd: int
    done: asyncio.Future[None]

    def answer(self, error: BaseException | None) -> None:
        if self.done.done():
            return  # its writer was cancelled meanwhile (the file is closed all the same)
        if error is None:
            self.done.set_result(None)
        else:
            self.done.set_exception(error)


class Flusher:
    """Flushes open files to disk and closes them, in a worker thread, grouped: files handed
    over while a trip is under way go together in the next one. Once handed over, a file is
    the flusher's: it is closed even if its writer is cancelled meanwhile."""

    def __init__(self) -> None:
        self._queued: list[_Flush] = []
        self._sender: asyncio.Task[None] | None = None

    async def flush(self, fd: int) -> None:
        """Flush the open file `fd` to disk and close it; OSError if the flush failed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append(_Flush(fd, done))
        if self._sender is None:
            self._sender = asyncio.create_task(self._send(), name="local-wiki-flush")
        await done

    async def _send(self) -> None:
        group: list[_Flush] = []
        try:
            while self._queued:
                group, self._queued = self._queued, []
                try:
                    errors = await asyncio.to_thread(_sync_and_close, [f.fd for f in group])
                except Exception as exc:  # the trip itself failed: every flush of it did
                    errors = [OSError(f"flush failed: {exc!r}") for _ in group]
                for flush, error in zip(group, errors, strict=True):
                    flush.answer(error)
                group = []
        finally:
            self._sender = None
            for flush in group:  # the trip in flight when the loop ended: its thread closes them
                flush.done.cancel()
            for flush in self._queued:  # never sent: closed here, unflushed (nothing is done)
                with contextlib.suppress(OSError):
                    os.close(flush.fd)
                flush.done.cancel()
            self._queued = []


def _sync_and_close(fds: list[int]) -> list[OSError | None]:
    """On the worker thread: each file flushed to disk, then closed; each one's error."""
    errors: list[OSError | None] = []
    for fd in fds:
        try:
            os.fsync(fd)
        except OSError as exc:
            errors.append(exc)
        else:
            errors.append(None)
        finally:
            with contextlib.suppress(OSError):
                os.close(fd)
    return errors
