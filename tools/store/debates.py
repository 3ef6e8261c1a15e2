"""The engine's storage (SQLite or PostgreSQL): debates, their turns and their pending effects."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from pydantic import TypeAdapter

from handlers.events import EFFECT_ADAPTER, Effect
from handlers.model import (
    DEFAULT_ROSTER,
    Debate,
    ParsedReply,
    Participant,
    Phase,
    Proposal,
    Turn,
    TurnMeta,
)
from tools.store.db import Connection, Database, Row
from tools.store.polls import PollTimers

_DEBATE = TypeAdapter(Debate)
_PARSED = TypeAdapter(ParsedReply)

INSERT_DEBATE = """
INSERT INTO debates (channel_id, topic, phase, state, created_at, updated_at)
VALUES (?, ?, ?, '{}', ?, ?) RETURNING id
"""
INSERT_PROPOSAL = "INSERT INTO proposals (debate_id, channel_id, expires_at) VALUES (?, ?, ?)"
UPDATE_DEBATE = """
UPDATE debates SET phase = ?, state = ?, updated_at = ?, ended_at = ?, format = ? WHERE id = ?
"""
DECIDE_PROPOSAL = """
UPDATE proposals SET decided_by = ?, decided_at = ? WHERE debate_id = ? AND decided_at IS NULL
"""
SELECT_STATE = "SELECT state FROM debates WHERE id = ?"
INSERT_EFFECTS = "INSERT INTO effects (debate_id, kind, payload, created_at) VALUES {rows}"
COMPLETE_EFFECTS = "UPDATE effects SET done_at = ? WHERE id IN ({ids}) AND done_at IS NULL"
_MAX_ROWS = 200  # rows per INSERT: 4 variables each, far below SQLite's limit
SELECT_PENDING = """
SELECT id, payload FROM effects WHERE debate_id = ? AND done_at IS NULL ORDER BY id LIMIT ?
"""
INSERT_TURN = """
INSERT INTO turns (debate_id, number, round, seat, text, raw, sha256, parsed, model,
                   input_tokens, output_tokens, cost_usd, latency_s, num_turns, session_id,
                   denied_tools, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
SELECT_TURNS = """
SELECT * FROM turns WHERE debate_id = ? ORDER BY number DESC LIMIT ?
"""
SELECT_ALL_TURNS = "SELECT * FROM turns WHERE debate_id = ? ORDER BY number DESC"
SELECT_AUTHORS = "SELECT number, seat FROM turns WHERE debate_id = ? ORDER BY number"
SELECT_TURN = "SELECT * FROM turns WHERE debate_id = ? AND number = ?"
SELECT_MESSAGE_URL = "SELECT message_url FROM turns WHERE debate_id = ? AND number = ?"
SET_MESSAGE_URL = "UPDATE turns SET message_url = ? WHERE debate_id = ? AND number = ?"
SELECT_WITH_WORK = """
SELECT DISTINCT debate_id FROM effects WHERE done_at IS NULL ORDER BY debate_id
"""
SELECT_OPEN_TOPICS = """
SELECT topic FROM debates WHERE channel_id = ? AND phase IN ({phases})
"""
SELECT_DUE_PROPOSALS = """
SELECT p.debate_id FROM proposals p JOIN debates d ON d.id = p.debate_id
WHERE p.decided_at IS NULL AND d.phase = 'proposed' AND p.expires_at <= ?
ORDER BY p.debate_id
"""
COUNT_WAITING_CARDS = "SELECT count(*) FROM debates WHERE channel_id = ? AND phase = 'proposed'"
SELECT_BY_PHASE = "SELECT id FROM debates WHERE phase = ? ORDER BY id"
KEPT_TURNS = 3  # per debate: a turn is read back to post, log and relay it, then rarely


class DebateNotFound(LookupError):
    """No debate with that id."""


class SqliteStore:
    """Debates, turns and effects in the one database (SQLite, or PostgreSQL by its URL)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        # PostgreSQL keeps a turn's text as bytes (BYTEA): its TEXT refuses lone surrogates.
        self._as_bytes = db.dialect == "postgres"
        self._polls = PollTimers(db)
        # Stored turns never change (only their message_url, kept apart), so the latest
        # few of each debate are kept once committed or read, for the reads that follow.
        self._turns: dict[int, dict[int, Turn]] = {}
        self._urls: dict[tuple[int, int], str] = {}

    async def create(
        self,
        proposal: Proposal,
        max_rounds: int,
        now: datetime,
        ttl: timedelta,
        effects: Sequence[Effect],
        roster: tuple[Participant, ...] = DEFAULT_ROSTER,
        format_name: str = "free",
        options: tuple[tuple[str, str], ...] = (),
    ) -> Debate:
        """Store a new proposal (phase `proposed`) and its first effects, atomically; the
        roster and format are the configured ones, shown on the card, fixed at approval."""
        stamp = now.isoformat()
        async with self._db.transaction() as conn:
            debate_id = await conn.insert(
                INSERT_DEBATE, (proposal.channel_id, proposal.topic, Phase.PROPOSED, stamp, stamp)
            )
            debate = Debate(
                id=debate_id,
                proposal=proposal,
                phase=Phase.PROPOSED,
                created_at=now,
                max_rounds=max_rounds,
                roster=roster,
                format=format_name,
                options=options,
            )
            await conn.execute(UPDATE_DEBATE, _state_row(debate, stamp))
            await conn.execute(
                INSERT_PROPOSAL, (debate_id, proposal.channel_id, (now + ttl).isoformat())
            )
            await self._insert_effects(conn, debate_id, effects, stamp)
        return debate

    async def load(self, debate_id: int) -> Debate:
        """The debate's current state."""
        row = await self._db.fetch_one(SELECT_STATE, (debate_id,))
        if row is None:
            raise DebateNotFound(debate_id)
        debate = _DEBATE.validate_json(row["state"])
        if debate.turns and not debate.log:
            # Stored before the engine kept who spoke when: rebuilt once from the turns.
            rows = await self._db.fetch_all(SELECT_AUTHORS, (debate_id,))
            debate = replace(debate, log=tuple((int(r[0]), str(r[1])) for r in rows))
        return debate

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
        """Store a transition's outcome in one transaction: state, turn, effects, and the
        completion of the effect that yielded it and of any run since (`completed`)."""
        stamp = now.isoformat()
        async with self._db.transaction() as conn:
            await self._in_step(conn, debate.id)
            await conn.execute(UPDATE_DEBATE, _state_row(debate, stamp))
            if turn is not None:
                await conn.execute(INSERT_TURN, _turn_row(turn, self._as_bytes))
            await self._insert_effects(conn, debate.id, effects, stamp)
            done = [*completed, *(() if completed_effect is None else (completed_effect,))]
            await _complete(conn, done, stamp)
            if decided_by is not None:
                await conn.execute(DECIDE_PROPOSAL, (decided_by, stamp, debate.id))
        if debate.phase.is_terminal:
            self._forget(debate.id)
        elif turn is not None:
            self._keep(turn)

    async def _in_step(self, conn: Connection, debate_id: int) -> None:
        """First in a step's transaction; a store shared by processes checks its lease here."""

    async def pending_effects(self, debate_id: int, limit: int = 1) -> list[tuple[int, Effect]]:
        """The oldest effects not yet done, in order."""
        rows = await self._db.fetch_all(SELECT_PENDING, (debate_id, limit))
        return [(row["id"], EFFECT_ADAPTER.validate_json(row["payload"])) for row in rows]

    async def complete_effect(self, effect_id: int, now: datetime) -> None:
        """Mark an effect done."""
        await self.complete_effects((effect_id,), now)

    async def complete_effects(self, effect_ids: Sequence[int], now: datetime) -> None:
        """Mark several effects done, in one statement."""
        if effect_ids:  # one statement: autocommit, one trip to the database thread
            ids = ", ".join(str(int(i)) for i in effect_ids)
            await self._db.execute(COMPLETE_EFFECTS.format(ids=ids), (now.isoformat(),))

    async def turn(self, debate_id: int, number: int) -> Turn:
        """One stored turn."""
        kept = self._turns.get(debate_id, {}).get(number)
        if kept is not None:
            return kept
        row = await self._db.fetch_one(SELECT_TURN, (debate_id, number))
        if row is None:
            raise LookupError(f"debate {debate_id} has no turn {number}")
        found = _turn_of(row)
        self._keep(found)
        return found

    async def last_turns(self, debate_id: int, count: int) -> tuple[Turn, ...]:
        """The latest `count` turns, oldest first."""
        rows = await self._db.fetch_all(SELECT_TURNS, (debate_id, count))
        return tuple(_turn_of(row) for row in reversed(rows))

    async def all_turns(self, debate_id: int) -> tuple[Turn, ...]:
        """Every turn of a debate, in order."""
        rows = await self._db.fetch_all(SELECT_ALL_TURNS, (debate_id,))
        return tuple(_turn_of(row) for row in reversed(rows))

    async def set_message_url(self, debate_id: int, number: int, url: str) -> None:
        """Remember where a turn was posted (the Round-Log links to it)."""
        self._urls.pop((debate_id, number), None)
        await self._db.execute(SET_MESSAGE_URL, (url, debate_id, number))
        if number in self._turns.get(debate_id, {}):
            self._urls[(debate_id, number)] = url

    async def message_url(self, debate_id: int, number: int) -> str:
        """Where a turn was posted, or ''."""
        kept = self._urls.get((debate_id, number))
        if kept is not None:
            return kept
        row = await self._db.fetch_one(SELECT_MESSAGE_URL, (debate_id, number))
        return str(row[0] or "") if row else ""

    async def debates_with_work(self) -> list[int]:
        """Debates that have effects still to run (to resume after a restart)."""
        return [row[0] for row in await self._db.fetch_all(SELECT_WITH_WORK)]

    async def debates_in(self, phase: Phase) -> list[int]:
        """Ids of debates in a phase."""
        return [row[0] for row in await self._db.fetch_all(SELECT_BY_PHASE, (phase.value,))]

    async def open_topics(self, channel_id: int) -> list[str]:
        """Topics of proposals and debates not yet ended in a channel."""
        live = [p.value for p in Phase if not p.is_terminal]
        sql = SELECT_OPEN_TOPICS.format(phases=", ".join("?" for _ in live))
        return [row[0] for row in await self._db.fetch_all(sql, (channel_id, *live))]

    async def waiting_cards(self, channel_id: int) -> int:
        """How many approval cards wait for a click in a channel."""
        row = await self._db.fetch_one(COUNT_WAITING_CARDS, (channel_id,))
        return int(row[0]) if row else 0

    async def due_proposals(self, now: datetime) -> list[int]:
        """Proposals whose card has waited past its expiry."""
        return [
            row[0] for row in await self._db.fetch_all(SELECT_DUE_PROPOSALS, (now.isoformat(),))
        ]

    async def schedule_poll(self, debate_id: int, ends_at: datetime) -> None:
        """Store a poll's end time (a repeat keeps the first one)."""
        await self._polls.schedule(debate_id, ends_at)

    async def due_polls(self, now: datetime) -> list[int]:
        """Debates whose poll is past its end time and not yet closed."""
        return await self._polls.due(now)

    async def poll_closed(self, debate_id: int, now: datetime) -> None:
        """The poll was read: its timer is done."""
        await self._polls.closed(debate_id, now)

    def _keep(self, turn: Turn) -> None:
        """Keep a committed turn; only the debate's latest few stay."""
        kept = self._turns.setdefault(turn.debate_id, {})
        kept[turn.number] = turn
        for old in sorted(kept)[:-KEPT_TURNS]:
            del kept[old]
            self._urls.pop((turn.debate_id, old), None)

    def forget(self, debate_id: int) -> None:
        """Drop what is kept in memory of a debate (another process may have changed it)."""
        self._forget(debate_id)

    def _forget(self, debate_id: int) -> None:
        """An ended debate's turns are not read again in its hot path."""
        for number in self._turns.pop(debate_id, {}):
            self._urls.pop((debate_id, number), None)

    @staticmethod
    async def _insert_effects(
        conn: Connection, debate_id: int, effects: Sequence[Effect], stamp: str
    ) -> None:
        """All of a step's effects in one statement, in order (ids ascend in row order)."""
        for start in range(0, len(effects), _MAX_ROWS):
            chunk = effects[start : start + _MAX_ROWS]
            values = [
                value
                for effect in chunk
                for value in (
                    debate_id,
                    effect.kind,
                    EFFECT_ADAPTER.dump_json(effect).decode(),
                    stamp,
                )
            ]
            sql = INSERT_EFFECTS.format(rows=", ".join("(?, ?, ?, ?)" for _ in chunk))
            await conn.execute(sql, values)


async def _complete(conn: Connection, effect_ids: Sequence[int], stamp: str) -> None:
    """Mark effects done: one statement (ids are the engine's own integers)."""
    if effect_ids:
        ids = ", ".join(str(int(i)) for i in effect_ids)
        await conn.execute(COMPLETE_EFFECTS.format(ids=ids), (stamp,))


def _state_row(debate: Debate, stamp: str) -> tuple[object, ...]:
    """UPDATE_DEBATE's values: the whole state as JSON, and the columns copied for queries."""
    ended = debate.ended_at.isoformat() if debate.ended_at else None
    state = _DEBATE.dump_json(debate).decode()
    return (debate.phase, state, stamp, ended, debate.format, debate.id)


def _turn_row(turn: Turn, as_bytes: bool) -> tuple[object, ...]:
    meta = turn.meta
    return (
        turn.debate_id,
        turn.number,
        turn.round,
        turn.seat,
        _exact(turn.text, as_bytes),
        _exact(turn.raw, as_bytes),
        turn.sha256,
        _PARSED.dump_json(turn.parsed).decode(),
        meta.model,
        meta.input_tokens,
        meta.output_tokens,
        meta.cost_usd,
        meta.latency_s,
        meta.num_turns,
        meta.session_id,
        json.dumps(list(meta.denied_tools)),
        turn.at.isoformat(),
    )


def _turn_of(row: Row) -> Turn:
    get = row.__getitem__
    meta = TurnMeta(
        model=get("model"),
        input_tokens=get("input_tokens"),
        output_tokens=get("output_tokens"),
        cost_usd=get("cost_usd"),
        latency_s=get("latency_s"),
        num_turns=get("num_turns"),
        session_id=get("session_id"),
        denied_tools=tuple(json.loads(get("denied_tools"))),
    )
    return Turn(
        debate_id=get("debate_id"),
        number=get("number"),
        round=get("round"),
        seat=str(get("seat")),
        text=_text(get("text")),
        raw=_text(get("raw")),
        sha256=get("sha256"),
        parsed=_PARSED.validate_json(get("parsed")),
        meta=meta,
        at=datetime.fromisoformat(get("created_at")),
    )


def _exact(text: str, as_bytes: bool = False) -> str | bytes:
    """`text` as the database can take it: a lone surrogate (which UTF-8 cannot encode) makes
    it exact UTF-8 bytes with surrogates passed through, stored as a BLOB (always bytes for
    PostgreSQL's BYTEA column)."""
    if as_bytes:
        return text.encode("utf-8", "surrogatepass")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")
    return text


def _text(value: str | bytes) -> str:
    """What `_exact` stored, as the text it was."""
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else value
