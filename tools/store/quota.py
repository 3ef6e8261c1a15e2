"""The moderator's daily quota: every request counted per day against the daily budget."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from handlers.core.shorten import shorten
from tools.store.db import Database

SELECT_QUOTA = "SELECT reason FROM moderator_quota WHERE day = ?"
COUNT_CALLS = "SELECT COUNT(*) FROM moderator_calls WHERE day = ?"
INSERT_QUOTA = """
INSERT INTO moderator_quota (day, reason, at) VALUES (?, ?, ?) ON CONFLICT (day) DO NOTHING
"""
INSERT_CALL = """
INSERT INTO moderator_calls (debate_id, day, purpose, model, outcome, input_chars, created_at)
VALUES (?, ?, ?, ?, 'sent', ?, ?) RETURNING id
"""
FINISH_CALL = """
UPDATE moderator_calls
SET outcome = ?, input_tokens = ?, output_tokens = ?, latency_ms = ?, error = ?
WHERE id = ?
"""
MARK_CALL = "UPDATE moderator_calls SET outcome = ?, error = ? WHERE id = ?"

LOCK_RESERVATIONS = "SELECT pg_advisory_xact_lock(?)"
RESERVATION_LOCK = 0x6D6F6465  # the quota's advisory lock key ("mode")

REASON_BUDGET = "budget"  # GEMINI_DAILY_REQUEST_BUDGET reached
REASON_QUOTA = "quota"  # the service said the day's quota is gone


def quota_day() -> date:
    """Today as the free tier counts it: Gemini's daily quotas reset at midnight Pacific time."""
    try:
        zone = ZoneInfo("America/Los_Angeles")
    except ZoneInfoNotFoundError:  # no tz database in a slim image: UTC is close enough
        return datetime.now(UTC).date()
    return datetime.now(zone).date()


class ModeratorQuota:
    """Counts requests per day in `moderator_calls`; a spent day goes to `moderator_quota`."""

    def __init__(self, db: Database, budget: int, today: Callable[[], date] = quota_day) -> None:
        self._db = db
        self.budget = budget
        self.today = today  # the day requests are counted under now

    async def spent_reason(self) -> str | None:
        """Why today is spent (`budget` or `quota`), or None while requests may go out."""
        row = await self._db.fetch_one(SELECT_QUOTA, (self.today().isoformat(),))
        return str(row[0]) if row is not None else None

    async def reserve(
        self, purpose: str, model: str, input_chars: int, debate_id: int | None
    ) -> int | None:
        """Count one request before it is sent; None when the day is spent (nothing to send)."""
        day = self.today().isoformat()
        now = datetime.now(UTC).isoformat()
        async with self._db.transaction() as conn:
            if self._db.dialect == "postgres":
                # Processes sharing the database count one at a time (SQLite's one writer
                # does this by itself): two counts side by side could both see room left.
                await conn.execute(LOCK_RESERVATIONS, (RESERVATION_LOCK,))
            if await conn.fetch_one(SELECT_QUOTA, (day,)) is not None:
                return None
            row = await conn.fetch_one(COUNT_CALLS, (day,))
            if row is not None and row[0] >= self.budget:
                await conn.execute(INSERT_QUOTA, (day, REASON_BUDGET, now))
                return None
            values = (debate_id, day, purpose, model, input_chars, now)
            return await conn.insert(INSERT_CALL, values)

    async def finish(
        self,
        call_id: int,
        outcome: str,
        *,
        input_tokens: int = 0,
        output_tokens: int = 0,
        latency_ms: int = 0,
        error: str = "",
    ) -> None:
        """Record how a counted request went."""
        await self._db.execute(
            FINISH_CALL,
            (outcome, input_tokens, output_tokens, latency_ms, shorten(error, 500), call_id),
        )

    async def mark(self, call_id: int, outcome: str, error: str = "") -> None:
        """Change a request's outcome (an answer that failed validation)."""
        await self._db.execute(MARK_CALL, (outcome, shorten(error, 500), call_id))

    async def exhaust(self, reason: str) -> None:
        """Record that today is spent: the rule-based moderator serves until the day ends."""
        now = datetime.now(UTC).isoformat()
        await self._db.execute(INSERT_QUOTA, (self.today().isoformat(), reason, now))

    async def used_today(self) -> int:
        """Requests counted today."""
        row = await self._db.fetch_one(COUNT_CALLS, (self.today().isoformat(),))
        return int(row[0]) if row is not None else 0
