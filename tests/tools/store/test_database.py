"""The database port behaves the same on SQLite and PostgreSQL: placeholders, rows by index
and by name, RETURNING id, rows changed, rollback, exact text, and secrets kept out of errors."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.store.db import Database, DatabaseError, mask_url, to_dollar_params

INSERT_QUOTA = "INSERT INTO moderator_quota (day, reason, at) VALUES (?, ?, ?)"


def test_placeholders_are_numbered_outside_quotes_and_comments() -> None:
    sql = "SELECT '?', \"a?\", x FROM t WHERE a = ? AND b = 'it''s ?' -- why?\n AND c = ?"
    assert to_dollar_params(sql) == (
        "SELECT '?', \"a?\", x FROM t WHERE a = $1 AND b = 'it''s ?' -- why?\n AND c = $2"
    )


@given(st.lists(st.sampled_from(["?", "'?'", "x", " ", "'a''?'", '"?"']), max_size=20))
def test_every_bare_placeholder_gets_the_next_number(parts: list[str]) -> None:
    bare = parts.count("?")
    numbered = to_dollar_params("".join(parts))
    assert [f"${n}" in numbered for n in range(1, bare + 1)] == [True] * bare
    assert f"${bare + 1}" not in numbered


def test_a_password_never_reaches_a_message() -> None:
    assert mask_url("postgresql://bot:s3cret@db:5432/bot") == "postgresql://bot:***@db:5432/bot"
    assert mask_url("postgresql://db/bot") == "postgresql://db/bot"


async def test_a_bad_password_is_a_clear_error_without_the_password(postgres_url: str) -> None:
    port = postgres_url.split("127.0.0.1:", 1)[1].split("/", 1)[0]
    url = postgres_url.replace(f"postgres@127.0.0.1:{port}", "postgres:hunter2@127.0.0.1:1")
    with pytest.raises(DatabaseError) as caught:
        await Database.open(url)
    assert "hunter2" not in str(caught.value)
    assert "cannot open postgresql://postgres:***@" in str(caught.value)


async def test_the_port_behaves_the_same(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        await db.execute(INSERT_QUOTA, ("d1", "budget", "t"))
        row = await db.fetch_one("SELECT day, reason FROM moderator_quota WHERE day = ?", ("d1",))
        assert row is not None and (row[0], row["reason"]) == ("d1", "budget")
        first = await db.insert(
            "INSERT INTO moderator_calls (debate_id, day, purpose, model, outcome, created_at)"
            " VALUES (?, ?, 'p', 'm', 'sent', 't') RETURNING id",
            (None, "d1"),
        )
        async with db.transaction() as conn:
            second = await conn.insert(
                "INSERT INTO moderator_calls (debate_id, day, purpose, model, outcome, created_at)"
                " VALUES (?, ?, 'p', 'm', 'sent', 't') RETURNING id",
                (7, "d1"),
            )
            changed = await conn.execute("UPDATE moderator_calls SET outcome = 'x'")
        assert first is not None and second is not None and second > first > 0
        assert changed == 2
        again = await db.insert(  # a row that is there already: nothing inserted, no id
            "INSERT INTO moderator_calls (id, debate_id, day, purpose, model, outcome,"
            " created_at) VALUES (?, NULL, 'd1', 'p', 'm', 'sent', 't')"
            " ON CONFLICT (id) DO NOTHING RETURNING id",
            (first,),
        )
        assert again is None
        assert await db.execute("DELETE FROM moderator_calls WHERE id = ?", (first,)) == 1
    finally:
        await db.close()


async def test_a_failed_transaction_leaves_nothing(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await conn.execute(INSERT_QUOTA, ("gone", "budget", "t"))
                raise RuntimeError("boom")
        assert await db.fetch_all("SELECT day FROM moderator_quota") == []
    finally:
        await db.close()


async def test_a_cancelled_writer_never_leaves_a_transaction_open(database_target: str) -> None:
    db = await Database.open(database_target)
    try:
        for attempt in range(12):

            async def write(day: str = f"d{attempt}") -> None:
                async with db.transaction() as conn:
                    await conn.execute(INSERT_QUOTA, (day, "x", "y"))
                    await conn.execute(INSERT_QUOTA, (day + "b", "x", "y"))

            task = asyncio.create_task(write())
            for _ in range(attempt % 6):
                await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        rows = await db.fetch_all("SELECT day FROM moderator_quota")
        days = {row[0] for row in rows}
        assert all((d in days) == (d + "b" in days) for d in days if not d.endswith("b"))
        await db.execute(INSERT_QUOTA, ("z", "x", "y"))
        row = await db.fetch_one("SELECT count(*) FROM moderator_quota WHERE day = 'z'")
        assert row is not None and row[0] == 1
    finally:
        await db.close()


def test_a_file_that_cannot_be_opened_leaves_no_thread_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed connect's worker thread is done before the event loop closes: it must not
    answer a closed loop (a RuntimeError in a stray thread, long after the failure)."""
    failures: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    folder = tmp_path / "a-folder-not-a-file"
    folder.mkdir()
    before = set(threading.enumerate())

    async def open_it() -> None:
        with pytest.raises(DatabaseError, match="cannot open"):
            await Database.open(str(folder))
        workers = [t for t in threading.enumerate() if "_connection_worker" in t.name]
        assert not [t for t in workers if t not in before and t.is_alive()]

    asyncio.run(open_it())
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=10)
    assert failures == []
