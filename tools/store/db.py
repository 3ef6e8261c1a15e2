"""The database every store uses: import it from here (both implementations registered).

`Database.open(target)` opens an SQLite file for a path and PostgreSQL for a postgresql://
URL; the port itself (Database, Connection, Row, helpers) is in tools.store.db_port.
"""

from __future__ import annotations

from tools.store import db_postgres, db_sqlite
from tools.store.db_port import (
    Connection,
    Database,
    DatabaseError,
    Dialect,
    Migration,
    Params,
    Row,
    bundled_migrations,
    is_postgres_url,
    mask_url,
    open_database,
    to_dollar_params,
)

__all__ = [
    "Connection",
    "Database",
    "DatabaseError",
    "Dialect",
    "Migration",
    "Params",
    "Row",
    "bundled_migrations",
    "db_postgres",
    "db_sqlite",
    "is_postgres_url",
    "mask_url",
    "open_database",
    "to_dollar_params",
]
