"""What schema a database holds, beside the one this release brings (for `debate-room doctor`)."""

from __future__ import annotations

from tools.store.db import Database, bundled_migrations


async def schema_versions(target: str) -> tuple[list[int], list[int]]:
    """The migrations the database at `target` has applied (opening it applies the pending
    ones), and those this release bundles for its dialect."""
    db = await Database.open(target)
    try:
        versions = await db.applied_versions()
        return versions, [version for version, _, _ in bundled_migrations(db.dialect)]
    finally:
        await db.close()
