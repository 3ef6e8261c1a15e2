"""The gateway's inbox: events for a debate, stored by the process that received them and
submitted in order by the process that holds the debate.

A command is marked done in the transaction that stores the step it made (the store's
`save_step(command=...)`), so after a crash it is applied again only if its step was not
stored: once, never lost.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from pydantic import ValidationError

from handlers.core.events import EVENT_ADAPTER, Event
from tools.store.db import Database
from tools.store.json_text import storable

log = logging.getLogger(__name__)

INSERT = """
INSERT INTO debate_inbox (debate_id, command, payload, created_at, answers) VALUES (?, ?, ?, ?, ?)
ON CONFLICT DO NOTHING
"""
SELECT_ANSWER = "SELECT payload FROM debate_inbox WHERE debate_id = ? AND answers = ?"
SELECT_PENDING = """
SELECT id, debate_id, command, payload FROM debate_inbox
WHERE done_at IS NULL AND debate_id IN ({ids}) ORDER BY id LIMIT ?
"""
MARK_DONE = "UPDATE debate_inbox SET done_at = ? WHERE id = ? AND done_at IS NULL"
COUNT_PENDING = "SELECT count(*) FROM debate_inbox WHERE debate_id = ? AND done_at IS NULL"
CHANNEL = "debate_room_inbox"  # PostgreSQL's NOTIFY channel that wakes the workers


@dataclass(frozen=True)
class Command:
    """One stored command: the event for the debate, in the order it was received."""

    id: int
    debate_id: int
    event: Event


class Inbox:
    """Commands for the debates, in the order the gateway received them."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._pg = db.dialect == "postgres"

    async def put(self, debate_id: int, event: Event, answers: str | None = None) -> Event | None:
        """Store an event for the debate and wake the workers. An event that `answers`
        something only one person may answer is stored only if none came first: else the first
        is returned, and nothing is stored."""
        payload = storable(EVENT_ADAPTER, event)
        stamp = datetime.now(UTC).isoformat()
        if not await self._db.execute(INSERT, (debate_id, event.kind, payload, stamp, answers)):
            return await self.first(debate_id, answers or "")
        await self.notify()
        return None

    async def first(self, debate_id: int, answers: str) -> Event | None:
        """The event stored first that answers `answers` (applied since, or not yet)."""
        row = await self._db.fetch_one(SELECT_ANSWER, (debate_id, answers))
        return EVENT_ADAPTER.validate_json(row[0]) if row else None

    async def notify(self) -> None:
        """Wake the workers of every process (PostgreSQL; elsewhere they poll)."""
        if self._pg:
            await self._db.execute(f"NOTIFY {CHANNEL}")

    async def pending(self, debate_ids: Sequence[int], limit: int = 100) -> list[Command]:
        """The oldest commands not yet applied for these debates, in order."""
        if not debate_ids:
            return []
        sql = SELECT_PENDING.format(ids=", ".join(str(int(i)) for i in debate_ids))
        commands = []
        for row in await self._db.fetch_all(sql, (limit,)):
            try:
                event = EVENT_ADAPTER.validate_json(row[3])
            except ValidationError:  # not an event (stored by an older release): given up
                log.warning("inbox command %s is not an event; dropped", row[0])
                await self.mark_done(int(row[0]))
                continue
            commands.append(Command(int(row[0]), int(row[1]), event))
        return commands

    async def count(self, debate_id: int) -> int:
        """How many commands for the debate wait."""
        row = await self._db.fetch_one(COUNT_PENDING, (debate_id,))
        return int(row[0]) if row else 0

    async def mark_done(self, command_id: int) -> None:
        """A command that could not be applied (it is logged): not tried again."""
        await self._db.execute(MARK_DONE, (datetime.now(UTC).isoformat(), command_id))
