"""One process per database: an exclusive lock on a file beside it, held for the process's life."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from tools.store.db import DatabaseError


class DatabaseInUse(DatabaseError):
    """Another process already runs on this database."""


class DatabaseLock:
    """`<database>.lock`, locked with flock: the kernel frees it when the process dies."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + ".lock")
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock or raise DatabaseInUse (or DatabaseError when it cannot be made)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = self.path.open("a+", encoding="utf-8")
        except OSError as exc:
            raise DatabaseError(f"cannot create the lock file {self.path}: {exc.strerror}") from exc
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise DatabaseInUse(
                f"{self.path.with_suffix('')} is in use by process {holder} "
                f"(lock {self.path}); one bot per DATABASE_PATH"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        """Let go of the lock (closing the file is enough for flock)."""
        if self._file is not None:
            self._file.close()
            self._file = None
