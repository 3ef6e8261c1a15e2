"""The database port every store shares: SQLite (the embedded default) or PostgreSQL.

Call sites write SQL once, with `?` placeholders and portable SQL (ON CONFLICT ... DO,
RETURNING id, no SQLite-only functions); `Database.open` picks the implementation from its
target: a `postgresql://` URL opens PostgreSQL (tools.store.db_postgres), anything else is
an SQLite file (tools.store.db_sqlite). Rows take an index and a column name on both.
Import it from tools.store.db, which registers both implementations.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources
from typing import Any, Literal, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "Connection",
    "Database",
    "DatabaseError",
    "Dialect",
    "Migration",
    "Params",
    "Row",
    "bundled_migrations",
    "is_postgres_url",
    "mask_url",
    "to_dollar_params",
]

T = TypeVar("T")
Dialect = Literal["sqlite", "postgres"]
Migration = tuple[int, str, str]  # (version, file name, sql)
Params = Sequence[Any]

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_URL_SCHEMES = ("postgresql://", "postgres://")
_PACKAGES: dict[Dialect, str] = {"sqlite": "migrations", "postgres": "migrations.postgres"}
SELECT_VERSIONS = "SELECT version FROM schema_migrations ORDER BY version"


class DatabaseError(Exception):
    """The database cannot be opened, reached or migrated."""


class Row(Protocol):
    """A result row: `row[0]` and `row["column"]` (aiosqlite.Row and asyncpg.Record both)."""

    def __getitem__(self, key: Any, /) -> Any:
        """The value of a column by position or by name."""


class Connection(Protocol):
    """The statements of one open transaction (what `Database.transaction()` yields)."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return how many rows it changed."""

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT ending in `RETURNING id`; return that id."""

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """One row of a read, or None."""

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a read."""


class Database(abc.ABC):
    """A connection (SQLite) or a pool (PostgreSQL); writes of several statements go through
    `transaction()`, a single write through `execute`/`insert`."""

    dialect: Dialect

    @staticmethod
    async def open(target: str, migrations: Iterable[Migration] | None = None) -> Database:
        """Open the database at `target` (an SQLite path or a postgresql:// URL) and apply
        the pending migrations (the bundled ones of its dialect unless given)."""
        dialect: Dialect = "postgres" if is_postgres_url(target) else "sqlite"
        opener = _OPENERS.get(dialect)
        if opener is None:
            raise DatabaseError(f"no {dialect} implementation: import tools.store.db")
        return await opener(target, migrations)

    @staticmethod
    async def read_versions(target: str) -> list[int] | None:
        """The migrations the database at `target` has applied, read without writing
        anything (no file, folder, table or migration is made); None: there is no database
        there yet (`open` would create it)."""
        dialect: Dialect = "postgres" if is_postgres_url(target) else "sqlite"
        reader = _READERS.get(dialect)
        if reader is None:
            raise DatabaseError(f"no {dialect} implementation: import tools.store.db")
        return await reader(target)

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the connection or pool."""

    @abc.abstractmethod
    async def migrate(self, migrations: Iterable[Migration]) -> list[int]:
        """Apply the migrations not yet recorded, each in its own transaction."""

    async def applied_versions(self) -> list[int]:
        """Versions recorded in schema_migrations, ascending."""
        return [int(row[0]) for row in await self.fetch_all(SELECT_VERSIONS)]

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction: COMMIT at the end, ROLLBACK on error or cancellation."""

    @abc.abstractmethod
    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """One row of a read, or None."""

    @abc.abstractmethod
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a read."""

    @abc.abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement in its own transaction; returns how many rows it changed."""

    @abc.abstractmethod
    async def insert(self, sql: str, params: Params = ()) -> int | None:
        """One INSERT ending in `RETURNING id`, in its own transaction; returns the id, or
        None when it inserted nothing (`ON CONFLICT ... DO NOTHING`)."""

    async def write_all(self, statements: Sequence[tuple[str, Params]]) -> None:
        """Several write statements as one transaction (ROLLBACK on any error)."""
        if len(statements) == 1:  # a lone statement is its own transaction
            await self.execute(*statements[0])
            return
        async with self.transaction() as conn:
            for sql, params in statements:
                await conn.execute(sql, params)


Opener = Callable[[str, Iterable[Migration] | None], Awaitable[Database]]
Reader = Callable[[str], Awaitable[list[int] | None]]
_OPENERS: dict[Dialect, Opener] = {}
_READERS: dict[Dialect, Reader] = {}


def register(dialect: Dialect, opener: Opener, reader: Reader) -> None:
    """Make `Database.open` and `Database.read_versions` use `opener` and `reader` for a
    dialect (each implementation registers itself)."""
    _OPENERS[dialect] = opener
    _READERS[dialect] = reader


def is_postgres_url(target: str) -> bool:
    """True when `target` names a PostgreSQL server rather than an SQLite file."""
    return target.startswith(_URL_SCHEMES)


def mask_url(url: str) -> str:
    """`url` with its password replaced by `***`, for messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable database URL>"
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def bundled_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """The migrations shipped for a dialect: `migrations/` (SQLite) or
    `migrations/postgres/` (its twins, same numbers), as (version, name, sql), in order."""
    found = []
    for entry in resources.files(_PACKAGES[dialect]).iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [version for version, _, _ in found]
    if len(set(versions)) != len(versions):
        raise DatabaseError(f"two migrations share a number: {versions}")
    return found


def to_dollar_params(sql: str) -> str:
    """`sql` with each `?` placeholder numbered for PostgreSQL (`$1`, `$2`, ...); a `?` in a
    quoted literal or identifier, or in a comment, is left as it is."""
    out: list[str] = []
    number = 0
    i = 0
    while i < len(sql):
        char = sql[i]
        if char in "'\"":
            end = _closing_quote(sql, i)
            out.append(sql[i:end])
            i = end
            continue
        if sql.startswith("--", i):
            end = sql.find("\n", i)
            end = len(sql) if end < 0 else end
            out.append(sql[i:end])
            i = end
            continue
        if char == "?":
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _closing_quote(sql: str, start: int) -> int:
    """The index just past the quoted text opened at `start` (a doubled quote escapes it)."""
    quote = sql[start]
    i = start + 1
    while i < len(sql):
        if sql[i] == quote:
            if sql.startswith(quote * 2, i):
                i += 2
                continue
            return i + 1
        i += 1
    return len(sql)  # unterminated: the server will say so


async def to_the_end(step: Awaitable[T]) -> T:
    """Await `step` to completion; a cancellation meanwhile is re-raised once it is done
    (BEGIN, COMMIT, ROLLBACK and single writes never stop half-way)."""
    task = asyncio.ensure_future(step)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        while not task.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait({task})
        raise


def statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations hold no ';' inside literals)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]
