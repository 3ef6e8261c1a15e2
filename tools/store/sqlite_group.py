"""Group commit for the one SQLite connection: writes made while a trip to aiosqlite's thread
is under way go together in the next trip, in one BEGIN ... COMMIT (docs/performance.md: why).

Each write keeps its own all-or-nothing (a write of several statements in a SAVEPOINT; SQLite
undoes a failed single statement itself): one that fails is rolled back alone and raises to its
caller, and a caller is answered only once the COMMIT is done. If SQLite ends the whole
transaction (a full disk, an I/O error), every write of the group fails. Reads are grouped the
same way (`run_reads`: each read in turn, with its own rows or error).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tools.store.db_port import Params, to_the_end

Statements = tuple[tuple[str, tuple[Any, ...]], ...]
Outcome = tuple[bool, Any]  # (True, rowcount or rows) or (False, the exception)
Trip = Callable[[Sequence["Write"]], Awaitable[list[Outcome]]]


@dataclass(frozen=True)
class Write:
    """One caller's statements (run as one unit) and whether it wants the last one's rows."""

    statements: Statements
    returning: bool
    answer: asyncio.Future[Any] = field(compare=False)


class GroupCommit:
    """Queues writes (or reads) and sends whatever is queued in one trip, one at a time."""

    def __init__(self, trip: Trip, lock: asyncio.Lock) -> None:
        # `trip` runs `run_group` (or `run_reads`) on the database thread; `lock` is the
        # connection's write lock, which an open `transaction()` holds (a group waits for it).
        self._trip = trip
        self._lock = lock
        self._queued: list[Write] = []
        self._sender: asyncio.Task[None] | None = None

    async def write(self, statements: Sequence[tuple[str, Params]], returning: bool) -> Any:
        """Run `statements` as one unit in the next group; the last one's row count, or its
        rows with `returning`. Runs to the end even if the caller is cancelled meanwhile."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        fixed = tuple((sql, tuple(params)) for sql, params in statements)
        self._queued.append(Write(fixed, returning, answer))
        if self._sender is None:
            self._sender = asyncio.create_task(self._send(), name="sqlite-group-commit")
        return await to_the_end(answer)

    async def drained(self) -> None:
        """Return once every queued write is answered (before the connection closes)."""
        while self._sender is not None:
            await asyncio.wait({self._sender})

    async def _send(self) -> None:
        try:
            while self._queued:
                async with self._lock:
                    group, self._queued = self._queued, []
                    trip = asyncio.ensure_future(self._trip(group))
                    try:
                        await to_the_end(trip)  # a cancelled sender still answers its group
                    finally:
                        _answer(group, trip)
        finally:
            self._sender = None
            for write in self._queued:  # only if this task was cancelled: nobody sends them
                write.answer.cancel()
            self._queued = []


def _answer(group: Sequence[Write], trip: asyncio.Future[list[Outcome]]) -> None:
    """Each caller its own outcome, or the trip's error for all of them."""
    if trip.cancelled():
        for write in group:
            write.answer.cancel()
        return
    failed = trip.exception()
    if failed is not None:
        for write in group:
            write.answer.set_exception(failed)
        return
    for write, (ok, value) in zip(group, trip.result(), strict=True):
        if ok:
            write.answer.set_result(value)
        else:
            write.answer.set_exception(value)


def run_group(conn: sqlite3.Connection, group: Sequence[Write]) -> list[Outcome]:
    """On the database thread: the group in one transaction, each write in a savepoint (a
    lone single statement runs as its own transaction, without the wrapping)."""
    if len(group) == 1 and len(group[0].statements) == 1:
        try:
            return [(True, _run(conn, group[0]))]
        except Exception as exc:  # the caller's own error, raised to it
            return [(False, exc)]
    conn.execute("BEGIN IMMEDIATE")
    try:
        outcomes = [_run_alone(conn, write) for write in group]
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _run_alone(conn: sqlite3.Connection, write: Write) -> Outcome:
    """One write inside the group's transaction: kept whole, or rolled back whole."""
    # A single statement needs no savepoint: SQLite undoes its changes and keeps the
    # transaction (a constraint's default ABORT).
    wrapped = len(write.statements) > 1
    if wrapped:
        conn.execute("SAVEPOINT one_write")
    try:
        value = _run(conn, write)
    except Exception as exc:
        if not conn.in_transaction:
            raise  # SQLite ended the whole transaction: the group fails
        if wrapped:
            conn.execute("ROLLBACK TO one_write")
            conn.execute("RELEASE one_write")
        return (False, exc)
    if wrapped:
        conn.execute("RELEASE one_write")
    return (True, value)


def _run(conn: sqlite3.Connection, write: Write) -> Any:
    *before, (sql, params) = write.statements  # a write has at least one statement
    for earlier, earlier_params in before:
        conn.execute(earlier, earlier_params)
    cursor = conn.execute(sql, params)
    return cursor.fetchall() if write.returning else cursor.rowcount


def run_reads(conn: sqlite3.Connection, group: Sequence[Write]) -> list[Outcome]:
    """On the database thread: each read in turn, each with its own outcome."""
    outcomes: list[Outcome] = []
    for read in group:
        try:
            outcomes.append((True, _run(conn, read)))
        except Exception as exc:  # the caller's own error, raised to it
            outcomes.append((False, exc))
    return outcomes
