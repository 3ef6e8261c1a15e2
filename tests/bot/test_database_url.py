"""DATABASE_URL selects PostgreSQL: a bad URL is one clear line, its password never shown;
doctor checks whichever database is configured."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.doctor import check_database
from bot.settings import Settings, SettingsError, load_settings
from tools.checks import Status
from tools.store.db import Database


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://bot:pw-s3cret@db/bot", "does not start with postgresql://"),
        ("postgresql://bot:pw-s3cret@db:port/bot", "port that is not a number"),
        ("postgresql://bot:pw-s3cret@db:5432/", "names no database"),
        ("postgresql://bot:pw-s3cret@/bot", "names no host"),
    ],
)
def test_a_bad_url_is_one_clear_line_without_the_password(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str, says: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SettingsError) as caught:
        load_settings(None)
    line = next(line for line in caught.value.lines if line.startswith("DATABASE_URL"))
    assert says in line
    assert "pw-s3cret" not in str(caught.value)
    assert "postgresql://user:password@host:5432/database" in line


def test_the_url_selects_postgres_and_the_path_stays_the_default(tmp_path: Path) -> None:
    lite = Settings.model_validate({"DATA_DIR": tmp_path, "DATABASE_PATH": tmp_path / "x.db"})
    assert lite.database_target == str(tmp_path / "x.db")
    pg = Settings.model_validate({"DATABASE_URL": "postgresql://bot:pw@db:5432/bot"})
    assert pg.database_target == "postgresql://bot:pw@db:5432/bot"
    assert pg.database_shown == "postgresql://bot:***@db:5432/bot"
    assert "pw@" not in repr(pg)


async def test_doctor_checks_postgres_reading_only(postgres_url: str) -> None:
    """A fresh database is named as one `run` will migrate, and doctor leaves it as it was
    (no migrations table); once migrated, its schema is named."""
    config = Settings.model_validate({"DATABASE_URL": postgres_url})
    fresh = await check_database(config)
    assert fresh.status is Status.WARNING, fresh.detail
    assert "not applied yet (`run` applies them at start)" in fresh.detail
    assert await Database.read_versions(postgres_url) == []  # still no schema_migrations
    await (await Database.open(postgres_url)).close()
    check = await check_database(config)
    assert check.status is Status.OK, check.detail
    assert "127.0.0.1" in check.detail and "schema" in check.detail


async def test_doctor_says_an_unreachable_postgres_in_one_line_without_the_password(
    postgres_url: str,
) -> None:
    port = postgres_url.split("127.0.0.1:", 1)[1].split("/", 1)[0]
    url = postgres_url.replace(f"postgres@127.0.0.1:{port}", "postgres:pw-s3cret@127.0.0.1:1")
    check = await check_database(Settings.model_validate({"DATABASE_URL": url}))
    assert check.status is Status.FAILING
    assert "\n" not in check.detail
    assert "pw-s3cret" not in check.detail and "postgres:***@127.0.0.1:1" in check.detail


async def test_doctor_checks_the_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "doc.sqlite3"
    check = await check_database(Settings.model_validate({"DATABASE_PATH": path}))
    assert check.status is Status.OK, check.detail
    assert str(path) in check.detail
