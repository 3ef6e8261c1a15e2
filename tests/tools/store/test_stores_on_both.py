"""The smaller stores on SQLite and on PostgreSQL: the moderator's daily quota, Claude's sessions
and their expiry, the rooms' message records."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from handlers.core.model import Phase, Proposal
from tests.doubles import draft
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.quota import REASON_BUDGET, ModeratorQuota
from tools.store.room_messages import RoomMessages
from tools.store.sessions import AgentSessions, forget_expired_sessions

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    yield database
    await database.close()


async def test_the_quota_counts_to_the_budget_then_the_day_is_spent(db: Database) -> None:
    quota = ModeratorQuota(db, budget=2, today=lambda: date(2026, 11, 30))
    first = await quota.reserve("judge", "flash", 10, debate_id=None)
    second = await quota.reserve("judge", "flash", 10, debate_id=3)
    assert first is not None and second is not None and second > first
    await quota.finish(first, "ok", input_tokens=5, output_tokens=6, latency_ms=7)
    assert await quota.reserve("judge", "flash", 10, debate_id=3) is None
    assert await quota.spent_reason() == REASON_BUDGET
    assert await quota.used_today() == 2
    await quota.exhaust("quota")  # already spent: the first reason stays
    assert await quota.spent_reason() == REASON_BUDGET


async def test_processes_sharing_postgres_never_overspend_the_budget(postgres_url: str) -> None:
    first, second = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        quotas = [
            ModeratorQuota(db, budget=5, today=lambda: date(2026, 11, 30)) for db in (first, second)
        ]
        got = await asyncio.gather(
            *(quotas[n % 2].reserve("judge", "flash", 1, None) for n in range(24))
        )
        assert len([call for call in got if call is not None]) == 5
        assert await quotas[0].used_today() == 5
    finally:
        await first.close()
        await second.close()


async def _ended_debate(db: Database, ended: datetime) -> int:
    store = SqliteStore(db)
    proposal = Proposal(
        channel_id=1 << 60,
        topic="t",
        question="q",
        reason="r",
        confidence=1.0,
        context="",
        people_ids=(1,),
    )
    debate = await store.create(draft(proposal, 3, ended), timedelta(hours=1), ())
    await db.execute(
        "UPDATE debates SET phase = ?, ended_at = ? WHERE id = ?",
        (Phase.CONCLUDED.value, ended.isoformat(), debate.id),
    )
    return debate.id


async def test_sessions_are_kept_per_participant_and_expire(db: Database, tmp_path: Path) -> None:
    old = await _ended_debate(db, NOW - timedelta(days=40))
    recent = await _ended_debate(db, NOW - timedelta(days=1))
    sessions = AgentSessions(db, "claude")
    for debate_id in (old, recent):
        await sessions.put(debate_id, "s-1", tmp_path)
        await sessions.put(debate_id, "s-2", tmp_path)  # replaces
        await sessions.put(debate_id, "g-1", tmp_path, participant="gemini")
    elsewhere = tmp_path / "new"
    assert await sessions.resume_point(recent, False, elsewhere) == ("s-2", tmp_path)
    assert await sessions.resume_point(recent, True, elsewhere) == (None, elsewhere)  # fresh
    assert await forget_expired_sessions(db, ttl_days=30, now=NOW) == 2
    assert await sessions.resume_point(old, False, elsewhere) == (None, elsewhere)
    await sessions.delete(recent)
    assert await sessions.resume_point(recent, False, elsewhere) == (None, elsewhere)
    assert await sessions.resume_point(recent, False, elsewhere, "gemini") == ("g-1", tmp_path)


async def test_room_records_replace_ignore_and_match_by_prefix(db: Database) -> None:
    rooms = RoomMessages(db)
    await rooms.put_all(5, [("thread", (1 << 62, 1, ""))])
    await rooms.add(5, "thread", (0, 0, "ignored"))
    await rooms.put_all(
        5,
        [
            ("relay:1", (2, 10, "a")),
            ("relay:12", (2, 11, "b")),
            ("relay:1", (2, 12, "c")),
            ("relay:2", (2, 13, "d")),
        ],
    )
    assert await rooms.thread_of(5) == 1 << 62
    assert await rooms.debate_in_thread(1 << 62) == 5
    assert await rooms.matching(5, "relay:1") == [("relay:1", 2, 12), ("relay:12", 2, 11)]
    assert await rooms.matching(5, "relay:") == [
        ("relay:1", 2, 12),
        ("relay:12", 2, 11),
        ("relay:2", 2, 13),
    ]
    assert await rooms.matching(5, "relay:2", keys=("thread", "tidied:2")) == [
        ("relay:2", 2, 13),
        ("thread", 1 << 62, 1),
    ]
    await rooms.delete(5, "relay:2")
    assert not await rooms.has(5, "relay:2")
    assert (await rooms.all_of(5))["relay:1"] == (2, 12, "c")


async def test_open_topics_are_those_of_debates_not_yet_ended(db: Database) -> None:
    await _ended_debate(db, NOW)
    proposal = Proposal(1 << 60, "열린 주제", "q", "r", 1.0, "", (7,), ("앨리스",))
    await SqliteStore(db).create(draft(proposal, 3, NOW), timedelta(hours=1), ())
    assert await SqliteStore(db).open_topics(1 << 60) == ["열린 주제"]
    assert await SqliteStore(db).open_topics(2) == []
