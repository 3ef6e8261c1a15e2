"""What schema a database holds, beside the one this release brings (for `debate-room doctor`)."""

from __future__ import annotations

from tools.store.db import Database, Dialect, bundled_migrations, is_postgres_url


async def schema_versions(target: str) -> tuple[list[int] | None, list[int]]:
    """The migrations the database at `target` has applied, read without writing anything
    (None: no database there yet), and those this release bundles for its dialect."""
    versions = await Database.read_versions(target)
    dialect: Dialect = "postgres" if is_postgres_url(target) else "sqlite"
    return versions, [version for version, _, _ in bundled_migrations(dialect)]
