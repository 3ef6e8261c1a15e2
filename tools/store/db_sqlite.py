"""SQLite through aiosqlite: WAL, one writer connection, explicit transactions, migrations."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import cast

import aiosqlite

from tools.store.db_port import (
    SELECT_VERSIONS,
    Connection,
    Database,
    DatabaseError,
    Dialect,
    Migration,
    Params,
    Row,
    bundled_migrations,
    register,
    statements,
    to_the_end,
)
from tools.store.sqlite_group import GroupCommit, run_group, run_reads

CREATE_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    applied_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)
"""
SELECT_APPLIED = "SELECT version FROM schema_migrations"
HAS_MIGRATIONS_TABLE = (
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
)
INSERT_APPLIED = "INSERT INTO schema_migrations (version, name) VALUES (?, ?)"


class _SqliteConnection:
    """The statements of a transaction on the one aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, tuple(params))
        return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        rows = await self._conn.execute_fetchall(sql, tuple(params))
        return int(next(iter(rows))[0])

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self._conn.execute_fetchall(sql, tuple(params))
        return cast("Row | None", next(iter(rows), None))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))


class SqliteDatabase(Database):
    """The one connection to the SQLite file; writes go through `transaction()`."""

    dialect: Dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._tx = _SqliteConnection(conn)
        self._write_lock = asyncio.Lock()
        # aiosqlite has no public call that runs a function on its thread; `_execute` is what
        # its own methods use.
        self._writes = GroupCommit(
            lambda group: conn._execute(run_group, conn._conn, group),  # type: ignore[no-untyped-call]  # aiosqlite leaves it unannotated
            self._write_lock,
        )
        # Reads too (they take no lock: a lock of their own, which nothing else holds).
        self._reads = GroupCommit(
            lambda group: conn._execute(run_reads, conn._conn, group),  # type: ignore[no-untyped-call]  # aiosqlite leaves it unannotated
            asyncio.Lock(),
        )

    @classmethod
    async def connect(
        cls, path: str, migrations: Iterable[Migration] | None = None
    ) -> SqliteDatabase:
        """Open (creating folders as needed), switch to WAL and apply pending migrations."""
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot open {path}: {_cause(path, exc)}") from exc
        connecting = aiosqlite.connect(path, isolation_level=None)
        try:
            conn = await connecting
        except (OSError, aiosqlite.Error) as exc:
            # aiosqlite queues its worker thread's stop without awaiting it: wait for the
            # thread here, or it answers this event loop after the loop has closed.
            await asyncio.to_thread(connecting._thread.join)  # no public way
            raise DatabaseError(f"cannot open {path}: {_cause(path, exc)}") from exc
        conn.row_factory = aiosqlite.Row
        db = cls(conn)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await db.migrate(bundled_migrations("sqlite") if migrations is None else migrations)
        except (aiosqlite.Error, DatabaseError, OSError) as exc:
            await conn.close()
            raise DatabaseError(f"cannot prepare {path}: {_cause(path, exc)}") from exc
        return db

    @staticmethod
    async def read_only_versions(path: str) -> list[int] | None:
        """The versions applied to the file at `path`, opened read-only (None: no file yet;
        a file without the migrations table has none)."""
        uri = await asyncio.to_thread(_read_only_uri, path)
        if uri is None:
            return None
        connecting = aiosqlite.connect(uri, uri=True)
        try:
            conn = await connecting
        except (OSError, aiosqlite.Error) as exc:
            await asyncio.to_thread(connecting._thread.join)  # as in `connect`
            raise DatabaseError(f"cannot open {path}: {_cause(path, exc)}") from exc
        try:
            found = await conn.execute_fetchall(HAS_MIGRATIONS_TABLE)
            if not found:
                return []
            return [int(row[0]) for row in await conn.execute_fetchall(SELECT_VERSIONS)]
        except aiosqlite.Error as exc:
            raise DatabaseError(f"cannot read {path}: {_cause(path, exc)}") from exc
        finally:
            await conn.close()

    async def close(self) -> None:
        """Close the connection (once the writes under way are committed)."""
        await self._writes.drained()
        await self._reads.drained()
        await self._conn.close()

    async def migrate(self, migrations: Iterable[Migration]) -> list[int]:
        """Apply the migrations not yet recorded, each in its own transaction."""
        await self._conn.execute(CREATE_MIGRATIONS_TABLE)
        applied = {row[0] for row in await self._conn.execute_fetchall(SELECT_APPLIED)}
        done = []
        for version, name, sql in migrations:
            if version in applied:
                continue
            async with self.transaction() as conn:
                for statement in statements(sql):
                    await conn.execute(statement)
                await conn.execute(INSERT_APPLIED, (version, name))
            done.append(version)
        return done

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One write transaction at a time: BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on error.

        BEGIN, COMMIT and ROLLBACK always run to the end even when the caller is cancelled
        (a Stop cancels a running turn), so the connection never stays inside a transaction.
        """
        async with self._write_lock:
            try:
                await to_the_end(self._conn.execute("BEGIN IMMEDIATE"))
            except asyncio.CancelledError:
                await to_the_end(self._conn.execute("ROLLBACK"))
                raise
            try:
                yield self._tx
            except BaseException:
                await to_the_end(self._conn.execute("ROLLBACK"))
                raise
            await to_the_end(self._conn.execute("COMMIT"))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """One row of a read, or None."""
        # One trip to aiosqlite's thread, shared with the reads made meanwhile.
        rows = await self._reads.write(((sql, params),), returning=True)
        return cast("Row | None", rows[0] if rows else None)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a read."""
        return list(await self._reads.write(((sql, params),), returning=True))

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement in its own transaction; returns how many rows it changed."""
        # Writes from other coroutines at the same time share its trip to the database
        # thread and its COMMIT (tools.store.sqlite_group), each one all-or-nothing.
        return int(await self._writes.write(((sql, params),), returning=False))

    async def insert(self, sql: str, params: Params = ()) -> int | None:
        """One INSERT ending in `RETURNING id`: the id, or None if it inserted nothing."""
        rows = await self._writes.write(((sql, params),), returning=True)
        return int(rows[0][0]) if rows else None

    async def write_all(self, statements: Sequence[tuple[str, Params]]) -> None:
        """Several write statements as one transaction, in the next group commit."""
        if statements:
            await self._writes.write(statements, returning=False)


def _read_only_uri(path: str) -> str | None:
    """The `file:` URI that opens `path` read-only (None: there is no file to open)."""
    file = Path(path)
    if path == ":memory:" or not file.exists():
        return None
    return f"{file.absolute().as_uri()}?mode=ro"


def _cause(path: str, exc: BaseException) -> str:
    """Why `path` cannot serve as the database, in words a person can act on."""
    file = Path(path)
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        message = exc.strerror
    if file.is_dir():
        return "it is a directory, not a file"
    folder = file.parent
    if file.exists() and not os.access(file, os.R_OK):
        return f"{message} (the file is not readable by this user)"
    if file.exists() and not os.access(file, os.W_OK):
        return f"{message} (the file is not writable by this user)"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{message} (the folder {folder} is not writable by this user)"
    if "not a database" in message or "malformed" in message:
        return f"{message} (not an SQLite database, or a damaged one)"
    return message


register("sqlite", SqliteDatabase.connect, SqliteDatabase.read_only_versions)
