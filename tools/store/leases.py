"""Debate leases: which process runs which debate, claimed, renewed, fenced.

A process claims debates whose lease is absent or lapsed, renews what it holds on a timer well
inside the lease, and stops acting on a debate `margin` before its lease could lapse unrenewed
(`holds`). Every step it stores is fenced: its first statement (`fence`) fails the transaction
unless this process still holds the generation it claimed (the lease row is read FOR SHARE on
PostgreSQL, so a claim waits for the step to commit). A process paused past its lease therefore
stores nothing more, and its effects stop at the next local check. `LeasedStore` is the store
of such a process: every write of a debate it makes is fenced so, and so is every outward write
of a running effect (`confirm`: a live edit, a status refresh, a deletion). Lease times are the
database's clock (`now()` in the statement), never a host's: a host whose clock runs ahead
cannot take a live lease.
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from handlers.leasing import LeaseLost
from tools.store.db import Database, Params
from tools.store.debates import LIVE_PHASES, SqliteStore

# Debates someone must run: not ended, or with effects, commands, wiki writes still queued, or
# a stored timer due (an ended debate's archive time; timers are the engine's clock, given).
SELECT_CLAIMABLE = f"""
SELECT d.id, COALESCE(l.expires_at, 0) FROM debates d
LEFT JOIN debate_leases l ON l.debate_id = d.id
WHERE (l.debate_id IS NULL OR l.expires_at < {{now}}) AND d.id > ?
  AND (d.phase IN ({LIVE_PHASES})
       OR d.effects <> '[]'
       OR EXISTS (SELECT 1 FROM debate_inbox i WHERE i.debate_id = d.id AND i.done_at IS NULL)
       OR EXISTS (SELECT 1 FROM wiki_outbox w WHERE w.debate_id = d.id AND w.done_at IS NULL)
       OR EXISTS (SELECT 1 FROM polls t
                  WHERE t.debate_id = d.id AND t.closed_at IS NULL AND t.ends_at <= ?))
ORDER BY d.id LIMIT ?
"""  # noqa: S608  # the phases are the engine's own constants
# Skip debates another claimer is looking at (row locks), and lock the ones taken.
PG_LOCK = " FOR UPDATE OF d SKIP LOCKED"
UPSERT_LEASE = """
INSERT INTO debate_leases (debate_id, owner, generation, expires_at)
VALUES (?, ?, 1, {now} + ?)
ON CONFLICT (debate_id) DO UPDATE
SET owner = excluded.owner, generation = debate_leases.generation + 1,
    expires_at = excluded.expires_at
WHERE debate_leases.expires_at < {now}
RETURNING generation
"""
INSERT_CLAIM = """
INSERT INTO debate_lease_claims (debate_id, generation, owner, claimed_at, lapsed_at)
VALUES (?, ?, ?, {now}, ?)
"""
RENEW = """
UPDATE debate_leases SET expires_at = {now} + ? WHERE owner = ? RETURNING debate_id, generation
"""
# An outward write of a running effect goes out only while this row is found (see `confirm`).
CONFIRM = """
SELECT 1 FROM debate_leases
WHERE debate_id = ? AND owner = ? AND generation = ? AND expires_at > {now}
"""
# The database's clock in milliseconds since the epoch, as each dialect says it.
NOW_MS = {
    "postgres": "(extract(epoch FROM now()) * 1000)::bigint",
    "sqlite": "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
}
RELEASE = "UPDATE debate_leases SET expires_at = 0 WHERE debate_id = ? AND owner = ?"
SELECT_LEASE = "SELECT owner, generation FROM debate_leases WHERE debate_id = ?"
# The first statement of every step a process stores: it inserts a row, which the table's CHECK
# refuses (rolling the step back), unless the process still holds the generation it claimed.
# On PostgreSQL the lease row is share-locked to the commit, so a claim waits for the step.
FENCE = """
INSERT INTO debate_lease_fence (debate_id)
SELECT ? WHERE NOT EXISTS (
    SELECT 1 FROM debate_leases WHERE debate_id = ? AND owner = ? AND generation = ?{lock}
)
"""
STATEMENTS = {
    "claimable": SELECT_CLAIMABLE,
    "upsert": UPSERT_LEASE,
    "claim": INSERT_CLAIM,
    "renew": RENEW,
    "confirm": CONFIRM,
}


@dataclass(frozen=True)
class LeaseTiming:
    """How long a lease lasts, how often it is renewed, how early a holder stops acting.

    The renewal runs at a third of the lease so two renewals in a row may fail (a slow
    database, a busy machine) before the lease lapses; the holder stops acting a third of the
    lease before the end it last secured, so a paused process notices it may no longer act
    well before another can claim the debate.
    """

    lease_s: float = 30.0

    @property
    def renew_s(self) -> float:
        """Seconds between renewals."""
        return self.lease_s / 3

    @property
    def margin_s(self) -> float:
        """Seconds before the lease's end at which the holder stops acting."""
        return self.lease_s / 3


def new_owner_id() -> str:
    """This process's name in the lease table: host, pid and a random part (pids repeat)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Leases:
    """The leases this process holds, and the statements that claim, renew and fence them."""

    def __init__(
        self,
        db: Database,
        owner: str,
        timing: LeaseTiming,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._db = db
        self.owner = owner
        self.timing = timing
        self._monotonic = monotonic
        self._held: dict[int, tuple[int, float]] = {}  # debate -> (generation, act until)
        # Debates claimed over a lease that lapsed -> when a whole lease has passed since.
        self._taken_over: dict[int, float] = {}
        self._pg = db.dialect == "postgres"
        self._lease_ms = int(timing.lease_s * 1000)
        self._sql = {name: sql.format(now=NOW_MS[db.dialect]) for name, sql in STATEMENTS.items()}

    def holds(self, debate_id: int) -> bool:
        """True while the debate's lease is held with more than the margin left."""
        held = self._held.get(debate_id)
        return held is not None and self._monotonic() < held[1]

    def held(self) -> list[int]:
        """The debates this process holds (some may be past the point of acting)."""
        return sorted(self._held)

    def generation(self, debate_id: int) -> int | None:
        """The generation this process claimed the debate with, if it holds it."""
        held = self._held.get(debate_id)
        return held[0] if held else None

    async def claim(self, limit: int, now: datetime | None = None) -> list[int]:
        """Claim up to `limit` debates nobody holds (or whose lease lapsed); their ids. With
        `now` (the engine's clock), an ended debate whose stored timer is due is claimed too."""
        if limit <= 0:
            return []
        due = now.isoformat() if now is not None else ""  # '': no timer is due
        started, sql = self._monotonic(), self._sql
        select = sql["claimable"] + (PG_LOCK if self._pg else "")
        taken: list[int] = []
        after = 0  # candidates are read in id order, past the ones already tried
        async with self._db.transaction() as conn:
            while len(taken) < limit:
                found = await conn.fetch_all(select, (after, due, limit - len(taken)))
                if not found:
                    break
                for row in found:
                    debate_id, lapsed = int(row[0]), row[1]
                    after = debate_id
                    lease = (debate_id, self.owner, self._lease_ms)
                    rows = await conn.fetch_all(sql["upsert"], lease)
                    if not rows:
                        # Claimed by another process between this statement's snapshot and its
                        # row lock: not skipped as locked, so the next candidates are read.
                        continue
                    generation = int(rows[0][0])
                    claim = (debate_id, generation, self.owner, lapsed)
                    await conn.execute(sql["claim"], claim)
                    self._held[debate_id] = (generation, self._until(started))
                    if lapsed:  # not given back: its holder may be paused, not dead
                        self._taken_over[debate_id] = started + self.timing.lease_s
                    taken.append(debate_id)
        return taken

    async def renew(self) -> list[int]:
        """Extend every lease still ours; returns the debates whose lease was lost."""
        if not self._held:
            return []
        started = self._monotonic()
        async with self._db.transaction() as conn:
            rows = await conn.fetch_all(self._sql["renew"], (self._lease_ms, self.owner))
        ours = {int(row[0]): int(row[1]) for row in rows}
        lost = []
        for debate_id, (generation, _) in list(self._held.items()):
            if ours.get(debate_id) == generation:
                self._held[debate_id] = (generation, self._until(started))
            else:
                self._drop(debate_id)
                lost.append(debate_id)
        return lost

    async def release(self, debate_id: int) -> None:
        """Give the debate up at once (it ended): another process may claim it right away."""
        if self._drop(debate_id):
            await self._db.execute(RELEASE, (debate_id, self.owner))

    def fence(self, debate_id: int) -> tuple[str, tuple[Any, ...]]:
        """The statement that fails a step's transaction unless this process still holds the
        debate with the generation it claimed (a debate not held: it always fails)."""
        held = self._held.get(debate_id)
        generation = held[0] if held is not None else -1
        sql = FENCE.format(lock=" FOR SHARE" if self._pg else "")
        return sql, (max(debate_id, 0), debate_id, self.owner, generation)  # >= 0: refused

    async def still_ours(self, debate_id: int) -> bool:
        """True if the lease row has the generation claimed; if not, the debate is dropped."""
        held = self._held.get(debate_id)
        row = await self._db.fetch_one(SELECT_LEASE, (debate_id,))
        found = (row[0], int(row[1])) if row is not None else None
        ours = held is not None and found == (self.owner, held[0])
        if not ours:
            self._drop(debate_id)
        return ours

    async def confirm(self, debate_id: int) -> None:
        """LeaseLost unless the local deadline is ahead and the store has this generation's
        lease unexpired (the database's clock); the deadline again after the read (a pause)."""
        held = self._held.get(debate_id)
        if held is None or not self.holds(debate_id):
            raise LeaseLost(debate_id)
        found = await self._db.fetch_one(self._sql["confirm"], (debate_id, self.owner, held[0]))
        if found is None or not self.holds(debate_id):
            raise LeaseLost(debate_id)

    def taken_over(self, debate_id: int) -> bool:
        """True for a debate this process claimed over a lease that lapsed rather than one
        given back: its previous holder may have been paused, not dead."""
        return debate_id in self._taken_over

    def previous_holder_done(self, debate_id: int) -> bool:
        """True once a whole lease has passed since this process took the debate over: the
        previous holder sent nothing after its lease lapsed (it checks before each request,
        bot/discord/fenced_http.py), and what it had sent before has landed by now."""
        return self._monotonic() >= self._taken_over.get(debate_id, 0.0)

    def _drop(self, debate_id: int) -> bool:
        """Forget the debate (no longer held); True if it was held."""
        self._taken_over.pop(debate_id, None)
        return self._held.pop(debate_id, None) is not None

    def _until(self, started: float) -> float:
        """Act until the margin before the end secured by a request sent at `started`."""
        return started + self.timing.lease_s - self.timing.margin_s


class LeasedStore(SqliteStore):
    """The store of a process that shares the debates: each write is fenced by the lease."""

    def __init__(self, db: Database, leases: Leases) -> None:
        super().__init__(db)
        self._leases = leases

    async def _write(self, debate_id: int, statements: Sequence[tuple[str, Params]]) -> None:
        """The write behind the lease's fence; LeaseLost (nothing stored) if the lease is lost."""
        try:
            await self._db.write_all([self._leases.fence(debate_id), *statements])
        except Exception as exc:
            if not await self._leases.still_ours(debate_id):
                raise LeaseLost(debate_id) from exc
            raise
