"""The gateway's inbox: commands for a debate, stored by the process that received them and
applied in order by the process that holds the debate (issue 20).

A command is marked done in the transaction that stores the step it made (`LeasedStore`), so
after a crash it is applied again only if its step was not stored: once, never lost.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from handlers.core.effects import Effect
from handlers.core.model import Actor, Debate, Turn
from handlers.leasing import LeaseLost
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.leases import Leases

INSERT = "INSERT INTO debate_inbox (debate_id, command, payload, created_at) VALUES (?, ?, ?, ?)"
SELECT_PENDING = """
SELECT id, debate_id, command, payload FROM debate_inbox
WHERE done_at IS NULL AND debate_id IN ({ids}) ORDER BY id LIMIT ?
"""
MARK_DONE = "UPDATE debate_inbox SET done_at = ? WHERE id = ? AND done_at IS NULL"
COUNT_PENDING = "SELECT count(*) FROM debate_inbox WHERE debate_id = ? AND done_at IS NULL"
CHANNEL = "debate_room_inbox"  # PostgreSQL's NOTIFY channel that wakes the workers

# The inbox command being applied in this task: marked done with the step it stores. A list
# shared with the tasks started meanwhile, emptied once used, so only that step marks it.
APPLYING: contextvars.ContextVar[list[int]] = contextvars.ContextVar("applying", default=[])  # noqa: B039  # the default is never mutated: it stays empty


@dataclass(frozen=True)
class Command:
    """One stored command: the engine method to call, who did it, and its arguments."""

    id: int
    debate_id: int
    name: str
    actor: Actor
    args: tuple[Any, ...]


class Inbox:
    """Commands for the debates, in the order the gateway received them."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._pg = db.dialect == "postgres"

    async def put(self, debate_id: int, name: str, actor: Actor, args: Sequence[Any]) -> None:
        """Store a command and wake the workers."""
        payload = {"actor": [actor.user_id, actor.name, actor.is_approver], "args": list(args)}
        stamp = datetime.now(UTC).isoformat()
        await self._db.execute(INSERT, (debate_id, name, json.dumps(payload), stamp))
        await self.notify()

    async def notify(self) -> None:
        """Wake the workers of every process (PostgreSQL; elsewhere they poll)."""
        if self._pg:
            await self._db.execute(f"NOTIFY {CHANNEL}")

    async def pending(self, debate_ids: Sequence[int], limit: int = 100) -> list[Command]:
        """The oldest commands not yet applied for these debates, in order."""
        if not debate_ids:
            return []
        sql = SELECT_PENDING.format(ids=", ".join(str(int(i)) for i in debate_ids))
        return [_command(row) for row in await self._db.fetch_all(sql, (limit,))]

    async def count(self, debate_id: int) -> int:
        """How many commands for the debate wait."""
        row = await self._db.fetch_one(COUNT_PENDING, (debate_id,))
        return int(row[0]) if row else 0

    async def mark_done(self, command_id: int) -> None:
        """A command that could not be applied (it is logged): not tried again."""
        await self._db.execute(MARK_DONE, (datetime.now(UTC).isoformat(), command_id))


def _command(row: Any) -> Command:
    payload = json.loads(row[3])
    user_id, name, approver = payload["actor"]
    args = tuple(_tuples(arg) for arg in payload["args"])
    return Command(int(row[0]), int(row[1]), str(row[2]), Actor(user_id, name, approver), args)


def _tuples(value: Any) -> Any:
    """JSON gives lists where the engine's arguments are tuples (format options)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


class LeasedStore(SqliteStore):
    """The store of a process that shares the debates: every step is fenced by its lease, and
    marks done the inbox command that made it."""

    def __init__(self, db: Database, leases: Leases) -> None:
        super().__init__(db)
        self._leases = leases

    async def save_step(
        self,
        debate: Debate,
        effects: Sequence[Effect],
        turn: Turn | None,
        now: datetime,
        completed_effect: int | None = None,
        decided_by: int | None = None,
        completed: Sequence[int] = (),
    ) -> None:
        """The step, fenced: LeaseLost (nothing stored) if this process lost the debate."""
        applying = APPLYING.get()
        kept = list(applying)
        try:
            await super().save_step(
                debate, effects, turn, now, completed_effect, decided_by, completed
            )
        except Exception as exc:
            applying[:] = kept  # rolled back: the command is not applied
            if not await self._leases.still_ours(debate.id):
                raise LeaseLost(debate.id) from exc
            raise

    async def complete_effects(
        self, debate_id: int, effect_ids: Sequence[int], now: datetime
    ) -> None:
        """Effects marked done, fenced like a step (they rewrite the debate's queue)."""
        try:
            await super().complete_effects(debate_id, effect_ids, now)
        except Exception as exc:
            if not await self._leases.still_ours(debate_id):
                raise LeaseLost(debate_id) from exc
            raise

    def _step_statements(self, debate_id: int) -> list[tuple[str, Sequence[object]]]:
        """First in a step's transaction: the lease's fence, then the done mark of the command
        being applied (taken: the step that stores it is this one)."""
        statements = self._fence_statements(debate_id)
        applying = APPLYING.get()
        if applying:
            stamp = datetime.now(UTC).isoformat()
            statements.append((MARK_DONE, (stamp, applying[0])))
            applying.clear()
        return statements

    def _fence_statements(self, debate_id: int) -> list[tuple[str, Sequence[object]]]:
        """The lease's fence: the write fails unless this process still holds the debate."""
        return [self._leases.fence(debate_id)]
