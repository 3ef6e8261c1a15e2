"""The database every store uses: import it from here (both implementations registered).

`Database.open(target)` opens an SQLite file for a path and PostgreSQL for a postgresql://
URL; the port itself (Database, Connection, Row, helpers) is in tools.store.db_port.
"""

from __future__ import annotations

from tools.store import db_postgres, db_sqlite
from tools.store.db_port import *  # noqa: F403  # the port's names, re-exported
from tools.store.db_port import __all__ as _port

__all__ = [*_port, "db_postgres", "db_sqlite"]  # noqa: PLE0604  # the port's, then these
