"""Claude's session ids per debate (`agent_sessions`), and their expiry job."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tools.store.db import Database

log = logging.getLogger(__name__)

SELECT_SESSION = "SELECT session_id, workdir FROM agent_sessions WHERE debate_id = ? AND seat = ?"
UPSERT_SESSION = """
INSERT INTO agent_sessions (debate_id, seat, session_id, workdir, updated_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (debate_id, seat)
DO UPDATE SET session_id = excluded.session_id, workdir = excluded.workdir,
              updated_at = excluded.updated_at
"""
DELETE_SESSION = "DELETE FROM agent_sessions WHERE debate_id = ? AND seat = ?"
SELECT_ENDED_SESSIONS = """
SELECT DISTINCT s.debate_id, d.ended_at FROM agent_sessions s
JOIN debates d ON d.id = s.debate_id WHERE d.ended_at IS NOT NULL
"""
DELETE_DEBATE_SESSIONS = "DELETE FROM agent_sessions WHERE debate_id IN ({ids})"
JOB_ID = "claude-session-expiry"


class AgentSessions:
    """A CLI backend's rows of `agent_sessions`, one per (debate, participant): the latest
    session id wins. The `seat` column holds the participant's id."""

    def __init__(self, db: Database, participant: str) -> None:
        self._db = db
        self._seat = participant  # used when a call names no participant

    async def put(
        self, debate_id: int, session_id: str, workdir: Path, participant: str | None = None
    ) -> None:
        """Store the session id a call returned (replacing the previous one)."""
        now = datetime.now(UTC).isoformat()
        seat = participant or self._seat
        await self._db.execute(UPSERT_SESSION, (debate_id, seat, session_id, str(workdir), now))

    async def resume_point(
        self, debate_id: int, fresh: bool, default_workdir: Path, participant: str | None = None
    ) -> tuple[str | None, Path]:
        """The session to resume (None: start a new one) and the directory it must run in."""
        key = (debate_id, participant or self._seat)
        row = None if fresh else await self._db.fetch_one(SELECT_SESSION, key)
        if row is None:
            return None, default_workdir
        return str(row[0]), Path(row[1]) if row[1] else default_workdir

    async def delete(self, debate_id: int, participant: str | None = None) -> None:
        """Forget the debate participant's session."""
        await self._db.execute(DELETE_SESSION, (debate_id, participant or self._seat))


async def forget_expired_sessions(db: Database, ttl_days: int, now: datetime) -> int:
    """Delete the session rows of debates that ended more than `ttl_days` ago; return how many."""
    cutoff = now - timedelta(days=ttl_days)
    expired = []
    for row in await db.fetch_all(SELECT_ENDED_SESSIONS):
        try:
            ended = datetime.fromisoformat(str(row[1]))
        except ValueError:
            continue  # not a time the store wrote: leave it for a person
        if (ended if ended.tzinfo else ended.replace(tzinfo=UTC)) < cutoff:
            expired.append(int(row[0]))
    if not expired:
        return 0
    ids = ", ".join(str(debate_id) for debate_id in expired)
    removed = await db.execute(DELETE_DEBATE_SESSIONS.format(ids=ids))
    log.info("forgot %d expired session(s) of %d debate(s)", removed, len(expired))
    return removed


def schedule_session_expiry(
    scheduler: Any, db: Database, ttl_days: int, every_hours: float = 6.0
) -> None:
    """Add the expiry job to an apscheduler AsyncIOScheduler (runs now, then every few hours)."""

    async def expire_sessions() -> None:
        try:
            await forget_expired_sessions(db, ttl_days, datetime.now(UTC))
        except Exception:  # a scheduler job's boundary: log it, the next run tries again
            log.exception("session expiry failed")

    scheduler.add_job(
        expire_sessions,
        "interval",
        hours=every_hours,
        id=JOB_ID,
        replace_existing=True,
        next_run_time=datetime.now(UTC),
    )
