"""The engine's storage in SQLite: debates, their turns and their pending effects."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from handlers.core.effects import Effect
from handlers.core.model import Debate, Phase, Turn
from handlers.store_ports import StorePorts
from tools.store.db import Database, Params
from tools.store.debate_rows import debate_of, state_text
from tools.store.effect_queue import EffectQueue
from tools.store.inbox import MARK_DONE
from tools.store.polls import (
    CLOSE_DUE,
    CLOSE_POLL,
    INSERT_POLL,
    INSERT_RESUME,
    SELECT_DUE,
    SELECT_NEXT_DUE,
)
from tools.store.turns import (
    INSERT_TURN,
    SELECT_MESSAGE_URL,
    SELECT_TURN,
    SELECT_TURNS,
    UPDATE_MESSAGE_URL,
    turn_of,
    turn_row,
)

WIKI_KEY_BYTES = 3  # six hex digits: two databases' debate 1 on one topic meet 1 time in 16 M

# A second card waiting in a channel (another gateway process proposed the same chat first)
# inserts nothing: the index debates_one_waiting_card allows one.
INSERT_DEBATE = """
INSERT INTO debates (channel_id, guild_id, topic, phase, state, created_at, updated_at)
VALUES (?, ?, ?, ?, '{}', ?, ?) ON CONFLICT DO NOTHING RETURNING id
"""
INSERT_PROPOSAL = "INSERT INTO proposals (debate_id, channel_id, expires_at) VALUES (?, ?, ?)"
UPDATE_DEBATE = """
UPDATE debates SET phase = ?, state = ?, updated_at = ?, ended_at = ?, format = ?, effects = ?,
                   effect_seq = ?
WHERE id = ?
"""
DECIDE_PROPOSAL = """
UPDATE proposals SET decided_by = ?, decided_at = ? WHERE debate_id = ? AND decided_at IS NULL
"""
SELECT_STATE = "SELECT state FROM debates WHERE id = ?"
SELECT_STATE_IN_GUILD = "SELECT state FROM debates WHERE id = ? AND guild_id = ?"
SELECT_QUEUE = "SELECT effects, effect_seq FROM debates WHERE id = ?"
UPDATE_QUEUE = "UPDATE debates SET effects = ? WHERE id = ?"
SELECT_WITH_WORK = "SELECT id FROM debates WHERE effects <> '[]' ORDER BY id"
LIVE_PHASES = ", ".join(f"'{p.value}'" for p in Phase if not p.is_terminal)  # as SQL literals
SELECT_OPEN_TOPICS = f"""
SELECT topic FROM debates WHERE channel_id = ? AND phase IN ({LIVE_PHASES})
"""  # noqa: S608  # the phases are the engine's own constants
SELECT_DUE_PROPOSALS = """
SELECT p.debate_id FROM proposals p JOIN debates d ON d.id = p.debate_id
WHERE p.decided_at IS NULL AND d.phase = 'proposed' AND p.expires_at <= ?
ORDER BY p.debate_id
"""
SELECT_NEXT_EXPIRY = """
SELECT min(p.expires_at) FROM proposals p JOIN debates d ON d.id = p.debate_id
WHERE p.decided_at IS NULL AND d.phase = 'proposed' AND p.expires_at > ?
"""
SELECT_OPEN = f"""
SELECT id FROM debates WHERE phase IN ({LIVE_PHASES}) ORDER BY id
"""  # noqa: S608  # the phases are the engine's own constants
SELECT_OPEN_IN_GUILD = f"""
SELECT id FROM debates WHERE guild_id = ? AND phase IN ({LIVE_PHASES}) ORDER BY id
"""  # noqa: S608  # the phases are the engine's own constants
# Rows with no server recorded (states older than the proposal's guild_id): each channel's go
# to the server that holds the channel.
SELECT_UNCLAIMED_CHANNELS = "SELECT DISTINCT channel_id FROM debates WHERE guild_id = 0"
CLAIM_CHANNEL = "UPDATE debates SET guild_id = ? WHERE guild_id = 0 AND channel_id = ?"
COUNT_WAITING_CARDS = "SELECT count(*) FROM debates WHERE channel_id = ? AND phase = 'proposed'"
SELECT_TURN_COSTS = """
SELECT seat, avg(cost_usd), count(*) FROM turns WHERE cost_usd > 0 GROUP BY seat
"""


class DebateNotFound(LookupError):
    """No debate with that id."""


class SqliteStore:
    """Debates, turns and effects in the one database (SQLite, or PostgreSQL by its URL)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        # PostgreSQL keeps a turn's text as bytes (BYTEA): its TEXT refuses lone surrogates.
        self._as_bytes = db.dialect == "postgres"
        # A step and a completion read, change and write the same column: one at a time.
        self._queue_locks: dict[int, asyncio.Lock] = {}

    def ports(self) -> StorePorts:
        """This store as the engine's narrow ports (it implements each of them)."""
        return StorePorts(debates=self, effects=self, timers=self, turns=self, cards=self)

    async def create(
        self, draft: Debate, ttl: timedelta, effects: Sequence[Effect]
    ) -> Debate | None:
        """Store a new proposal and its first effects, atomically, under an id and a wiki key
        of the store's own; it expires `ttl` after it was made. None, and nothing stored, if
        a card waits in that channel already (whichever process stored it)."""
        proposal, stamp = draft.proposal, draft.created_at.isoformat()
        async with self._db.transaction() as conn:
            row = await conn.fetch_one(
                INSERT_DEBATE,
                (proposal.channel_id, proposal.guild_id, proposal.topic, draft.phase, stamp, stamp),
            )
            if row is None:
                return None
            debate_id = int(row[0])
            debate = replace(
                draft,
                id=debate_id,
                setup=replace(draft.setup, wiki_key=secrets.token_hex(WIKI_KEY_BYTES)),
            )
            queue = EffectQueue().step((), effects)
            await conn.execute(UPDATE_DEBATE, _state_row(debate, stamp, queue))
            expires = (draft.created_at + ttl).isoformat()
            await conn.execute(INSERT_PROPOSAL, (debate_id, proposal.channel_id, expires))
        return debate

    async def load(self, debate_id: int) -> Debate:
        """The debate's current state."""
        row = await self._db.fetch_one(SELECT_STATE, (debate_id,))
        if row is None:
            raise DebateNotFound(debate_id)
        return debate_of(row["state"])

    async def load_in(self, debate_id: int, guild_id: int) -> Debate:
        """The debate's current state if it belongs to server `guild_id`; one of another server
        is not found, exactly as an unknown id (its existence is not told)."""
        row = await self._db.fetch_one(SELECT_STATE_IN_GUILD, (debate_id, guild_id))
        if row is None:
            raise DebateNotFound(debate_id)
        return debate_of(row["state"])

    async def open_ids(self, guild_id: int | None = None) -> list[int]:
        """Ids of the debates not yet ended (a card waiting included), oldest first: of server
        `guild_id`, or of every server (None: the console, which has one person)."""
        if guild_id is None:
            return [row[0] for row in await self._db.fetch_all(SELECT_OPEN)]
        return [row[0] for row in await self._db.fetch_all(SELECT_OPEN_IN_GUILD, (guild_id,))]

    async def claim_unrecorded(self, guild_id: int, channel_ids: Iterable[int]) -> int:
        """Give the debates with no server recorded that were proposed in one of `channel_ids`
        (a server's channels) to that server; how many channels had such debates."""
        rows = await self._db.fetch_all(SELECT_UNCLAIMED_CHANNELS)
        held = {int(row[0]) for row in rows} & set(channel_ids)
        if held:
            await self._db.write_all([(CLAIM_CHANNEL, (guild_id, c)) for c in sorted(held)])
        return len(held)

    async def save_step(
        self,
        debate: Debate,
        effects: Sequence[Effect],
        turn: Turn | None,
        now: datetime,
        completed_effect: int | None = None,
        decided_by: int | None = None,
        command: int | None = None,
    ) -> None:
        """Store a transition's outcome in one transaction: state and effect queue in one
        statement, the turn, the completion of the effect that yielded it (it leaves the queue
        in that same statement), and the done mark of the inbox `command` whose event made it."""
        stamp = now.isoformat()
        done = set() if completed_effect is None else {completed_effect}
        async with self._queue_lock(debate.id):
            queue = (await self._queue(debate.id)).step(done, effects)
            statements: list[tuple[str, Params]] = [
                (UPDATE_DEBATE, _state_row(debate, stamp, queue))
            ]
            if turn is not None:
                statements.append((INSERT_TURN, turn_row(turn, self._as_bytes)))
            if decided_by is not None:
                statements.append((DECIDE_PROPOSAL, (decided_by, stamp, debate.id)))
            if command is not None:
                statements.append((MARK_DONE, (stamp, command)))
            await self._write(debate.id, statements)

    async def _write(self, debate_id: int, statements: Sequence[tuple[str, Params]]) -> None:
        """One write of a debate's rows, as one transaction (a shared store fences it)."""
        await self._db.write_all(statements)

    async def pending_effects(self, debate_id: int, limit: int = 1) -> list[tuple[int, Effect]]:
        """The oldest effects not yet done, in order."""
        async with self._queue_lock(debate_id):
            return (await self._queue(debate_id)).head(limit)

    async def complete_effects(
        self, debate_id: int, effect_ids: Sequence[int], now: datetime
    ) -> None:
        """Mark several of a debate's effects done, in one statement (none if none is queued)."""
        async with self._queue_lock(debate_id):
            before = await self._queue(debate_id)
            queue = before.step(set(effect_ids), ())
            if queue != before:
                await self._write(debate_id, [(UPDATE_QUEUE, (queue.text(), debate_id))])

    def _queue_lock(self, debate_id: int) -> asyncio.Lock:
        """One queue change at a time per debate (each rewrites the same column)."""
        return self._queue_locks.setdefault(debate_id, asyncio.Lock())

    async def _queue(self, debate_id: int) -> EffectQueue:
        """The debate's queue as its row holds it."""
        row = await self._db.fetch_one(SELECT_QUEUE, (debate_id,))
        if row is None:
            raise DebateNotFound(debate_id)
        return EffectQueue.parse(row[0], row[1])

    async def turn(self, debate_id: int, number: int) -> Turn:
        """One stored turn; LookupError if there is none."""
        row = await self._db.fetch_one(SELECT_TURN, (debate_id, number))
        if row is None:
            raise LookupError(f"debate {debate_id} has no turn {number}")
        return turn_of(row)

    async def last_turns(self, debate_id: int, count: int) -> tuple[Turn, ...]:
        """The latest `count` turns, oldest first."""
        rows = await self._db.fetch_all(SELECT_TURNS, (debate_id, count))
        return tuple(turn_of(row) for row in reversed(rows))

    async def message_url(self, debate_id: int, number: int) -> str:
        """Where a turn was posted (the link its first message has), or ''."""
        row = await self._db.fetch_one(SELECT_MESSAGE_URL, (debate_id, number))
        return str(row[0] or "") if row else ""

    async def record_link(self, debate_id: int, number: int, url: str) -> None:
        """Store where a turn was posted (the room's link to its first message)."""
        await self._write(debate_id, [(UPDATE_MESSAGE_URL, (url, debate_id, number))])

    async def debates_with_work(self) -> list[int]:
        """Debates that have effects still to run (to resume after a restart)."""
        return [row[0] for row in await self._db.fetch_all(SELECT_WITH_WORK)]

    async def open_topics(self, channel_id: int) -> list[str]:
        """Topics of proposals and debates not yet ended in a channel."""
        return [row[0] for row in await self._db.fetch_all(SELECT_OPEN_TOPICS, (channel_id,))]

    async def waiting_cards(self, channel_id: int) -> int:
        """How many approval cards wait for a click in a channel."""
        row = await self._db.fetch_one(COUNT_WAITING_CARDS, (channel_id,))
        return int(row[0]) if row else 0

    async def due_proposals(self, now: datetime) -> list[int]:
        """Proposals whose card has waited past its expiry."""
        return [
            row[0] for row in await self._db.fetch_all(SELECT_DUE_PROPOSALS, (now.isoformat(),))
        ]

    async def next_expiry(self, after: datetime) -> datetime | None:
        """When the first card still waiting expires after `after` (None: no card waits)."""
        row = await self._db.fetch_one(SELECT_NEXT_EXPIRY, (after.isoformat(),))
        return datetime.fromisoformat(str(row[0])) if row and row[0] else None

    async def schedule_poll(self, debate_id: int, ends_at: datetime) -> None:
        """Store a poll's end time (a repeat keeps the first one)."""
        await self._write(debate_id, [(INSERT_POLL, (debate_id, ends_at.isoformat()))])

    async def schedule_resume(self, debate_id: int, at: datetime) -> None:
        """Store when a limit pause ends (it replaces the debate's timer)."""
        await self._write(debate_id, [(INSERT_RESUME, (debate_id, at.isoformat()))])

    async def due_timers(self, now: datetime) -> list[int]:
        """Debates whose timer is due and not yet done."""
        return [int(row[0]) for row in await self._db.fetch_all(SELECT_DUE, (now.isoformat(),))]

    async def timer_done(self, debate_id: int, now: datetime) -> None:
        """The debate's timer that was due by `now` is handed over; a later one set meanwhile
        (an ended room's archive time) stays."""
        stamp = now.isoformat()
        await self._write(debate_id, [(CLOSE_DUE, (stamp, debate_id, stamp))])

    async def cancel_timer(self, debate_id: int, now: datetime) -> None:
        """The debate's timer never fires (its poll read early, the debate ended)."""
        await self._write(debate_id, [(CLOSE_POLL, (now.isoformat(), debate_id))])

    async def next_due(self, after: datetime) -> datetime | None:
        """When the earliest timer not yet done falls due after `after` (None: there is none)."""
        row = await self._db.fetch_one(SELECT_NEXT_DUE, (after.isoformat(),))
        return datetime.fromisoformat(str(row[0])) if row and row[0] else None

    async def turn_costs(self) -> dict[str, tuple[float, int]]:
        """Per seat, the mean cost of its recorded turns that cost anything, and their count."""
        rows = await self._db.fetch_all(SELECT_TURN_COSTS, ())
        return {str(row[0]): (float(row[1]), int(row[2])) for row in rows}


def _state_row(debate: Debate, stamp: str, queue: EffectQueue) -> tuple[object, ...]:
    """UPDATE_DEBATE's values: the state as JSON, its query columns and the effect queue."""
    ended = debate.ending.ended_at.isoformat() if debate.ending.ended_at else None
    state = state_text(debate)
    return (
        debate.phase,
        state,
        stamp,
        ended,
        debate.setup.format,
        queue.text(),
        queue.seq,
        debate.id,
    )
