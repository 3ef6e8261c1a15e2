"""PostgreSQL through asyncpg: a pool shared by every store of the process, the same SQL as
SQLite (`?` placeholders numbered here), migrations under an advisory lock so processes that
start together apply each one once."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, cast
from urllib.parse import urlsplit

import asyncpg

from handlers.store_ports import StoreUnavailable
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
    mask_url,
    register,
    to_dollar_params,
    to_the_end,
)

log = logging.getLogger(__name__)

CREATE_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    applied_at  TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC',
                                              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
)
"""
SELECT_APPLIED = "SELECT version FROM schema_migrations"
HAS_MIGRATIONS_TABLE = "SELECT to_regclass('schema_migrations') IS NOT NULL"
INSERT_APPLIED = "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)"
MIGRATION_LOCK = 0x64656261  # pg_advisory_lock key of this bot's migrations ("deba")
CONNECT_TIMEOUT_S = 10.0
POOL_SIZE = 10
_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)
# The server is out of reach, not the statement at fault: refused or lost connections, a
# server shutting down or starting up (SQLSTATE classes 08 and 57P), a connect timeout.
_UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
)


@contextmanager
def _reachable() -> Iterator[None]:
    """Turn the server being out of reach into the store port's StoreUnavailable."""
    try:
        yield
    except _UNREACHABLE as exc:
        raise StoreUnavailable(f"PostgreSQL is unreachable ({_cause(exc, '')})") from exc


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as `UPDATE 3` or `INSERT 0 1`."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresConnection:
    """The statements of a transaction on one pooled connection."""

    def __init__(self, conn: asyncpg.Connection[Any]) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        return _rowcount(await self._conn.execute(to_dollar_params(sql), *params))

    async def insert(self, sql: str, params: Params = ()) -> int:
        return int(await self._conn.fetchval(to_dollar_params(sql), *params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        return cast("Row | None", await self._conn.fetchrow(to_dollar_params(sql), *params))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return cast("list[Row]", await self._conn.fetch(to_dollar_params(sql), *params))


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database."""

    dialect: Dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool[Any]) -> None:
        self._pool = pool

    @classmethod
    async def connect(
        cls, url: str, migrations: Iterable[Migration] | None = None, pool_size: int = POOL_SIZE
    ) -> PostgresDatabase:
        """Connect a pool and apply pending migrations; DatabaseError says why it cannot."""
        masked = mask_url(url)
        try:
            # No floor of open connections: a pool that keeps one would retry it on its own
            # during an outage (a traceback each time); connections open as they are needed.
            pool = await asyncpg.create_pool(
                url, min_size=0, max_size=pool_size, timeout=CONNECT_TIMEOUT_S, reset=_release
            )
        except (*_ERRORS, ValueError) as exc:
            raise DatabaseError(f"cannot open {masked}: {_cause(exc, url)}") from exc
        try:
            async with pool.acquire():  # the server answers, with these credentials
                pass
        except (*_ERRORS, ValueError) as exc:
            await pool.close()
            raise DatabaseError(f"cannot open {masked}: {_cause(exc, url)}") from exc
        db = cls(pool)
        try:
            await db.migrate(bundled_migrations("postgres") if migrations is None else migrations)
        except (*_ERRORS, DatabaseError) as exc:
            await pool.close()
            raise DatabaseError(f"cannot prepare {masked}: {_cause(exc, url)}") from exc
        return db

    @staticmethod
    async def read_only_versions(url: str) -> list[int] | None:
        """The versions applied on the server at `url`, read over one connection that
        writes nothing (a database without the migrations table has none)."""
        try:
            conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S)
        except (*_ERRORS, ValueError) as exc:
            raise DatabaseError(f"cannot open {mask_url(url)}: {_cause(exc, url)}") from exc
        try:
            if not await conn.fetchval(HAS_MIGRATIONS_TABLE):
                return []
            return [int(row[0]) for row in await conn.fetch(SELECT_VERSIONS)]
        except _ERRORS as exc:
            raise DatabaseError(f"cannot read {mask_url(url)}: {_cause(exc, url)}") from exc
        finally:
            await conn.close()

    async def close(self) -> None:
        """Close the pool (waiting for connections in use to be released)."""
        await self._pool.close()

    async def migrate(self, migrations: Iterable[Migration]) -> list[int]:
        """Apply the migrations not yet recorded (an advisory lock: one process at a time)."""
        done = []
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute(CREATE_MIGRATIONS_TABLE)
                applied = {row[0] for row in await conn.fetch(SELECT_APPLIED)}
                for version, name, sql in migrations:
                    if version in applied:
                        continue
                    async with conn.transaction():
                        await conn.execute(sql)  # no arguments: several statements at once
                        await conn.execute(INSERT_APPLIED, version, name)
                    done.append(version)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        return done

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """BEGIN ... COMMIT on one pooled connection, or ROLLBACK on error or cancellation;
        BEGIN, COMMIT and ROLLBACK run to the end even when the caller is cancelled."""
        with _reachable():
            async with self._pool.acquire() as conn:
                tx = conn.transaction()
                await to_the_end(tx.start())
                try:
                    yield _PostgresConnection(conn)
                except BaseException:
                    await _roll_back(conn, tx)
                    raise
                await to_the_end(tx.commit())

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """One row of a read, or None."""
        with _reachable():
            return cast("Row | None", await self._pool.fetchrow(to_dollar_params(sql), *params))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a read."""
        with _reachable():
            return cast("list[Row]", await self._pool.fetch(to_dollar_params(sql), *params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement (autocommit); returns how many rows it changed."""
        with _reachable():
            return _rowcount(await to_the_end(self._pool.execute(to_dollar_params(sql), *params)))

    async def insert(self, sql: str, params: Params = ()) -> int | None:
        """One INSERT ending in `RETURNING id`: the id, or None if it inserted nothing."""
        with _reachable():
            value = await to_the_end(self._pool.fetchval(to_dollar_params(sql), *params))
        return None if value is None else int(value)


async def _release(conn: asyncpg.Connection[Any]) -> None:
    """Make a connection fit for the next user of the pool. Nothing here leaves session state
    on a pooled connection (SET, LISTEN, a session advisory lock is released where taken), so
    the default reset (RESET ALL and more: a round trip per release) is skipped; an open
    transaction is still rolled back."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


async def _roll_back(conn: asyncpg.Connection[Any], tx: Any) -> None:
    """ROLLBACK; a connection that cannot (a statement cut off by a cancellation) is closed,
    which ends its transaction on the server just the same."""
    try:
        await to_the_end(tx.rollback())
    except _ERRORS as exc:
        log.warning("rollback failed (%s): closing the connection", type(exc).__name__)
        conn.terminate()


def _cause(exc: BaseException, url: str) -> str:
    """Why the server cannot serve as the database, in one line without the password."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    password = _password(url)
    if password:
        text = text.replace(password, "***")
    if isinstance(exc, DatabaseError):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _password(url: str) -> str:
    """The URL's password, to keep it out of messages ('' when it has none)."""
    try:
        return urlsplit(url).password or ""
    except ValueError:
        return ""


register("postgres", PostgresDatabase.connect, PostgresDatabase.read_only_versions)
