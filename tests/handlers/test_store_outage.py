"""The store out of reach just as a reply comes in: the reply is saved once the store is back,
and its debater is not asked for it again (each ask costs a paid, slow turn)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from handlers.core.effects import Effect, Notify
from handlers.core.events import ProposalApproved
from handlers.core.model import CLAUDE, Debate, FailureKind, Outcome, Phase, Turn
from handlers.ports import DebaterError
from handlers.store_ports import StoreUnavailable
from tests.handlers.conftest import ALICE, Rig, proposal
from tools.store.db import Database
from tools.store.debates import SqliteStore


class FlakyStore(SqliteStore):
    """The real store, out of reach for the first `outages` saves of a reply (nothing stored)."""

    def __init__(self, db: Database, outages: int) -> None:
        super().__init__(db)
        self.outages = outages
        self.refused: list[int] = []  # the turns whose save was refused

    async def save_step(
        self, debate: Debate, effects: Sequence[Effect], turn: Turn | None, *args: Any, **kw: Any
    ) -> None:
        if turn is not None and len(self.refused) < self.outages:
            self.refused.append(turn.number)
            raise StoreUnavailable("the database is out of reach")
        await super().save_step(debate, effects, turn, *args, **kw)


async def test_a_reply_that_came_while_the_store_was_down_is_saved_not_asked_again(
    tmp_path: Path,
) -> None:
    stores: list[FlakyStore] = []

    def flaky(db: Database) -> SqliteStore:
        stores.append(FlakyStore(db, outages=2))
        return stores[-1]

    rig = Rig(tmp_path / "outage.sqlite3", max_rounds=2, make_store=flaky)
    await rig.start()
    try:
        debate_id = await rig.debate_to_end()
        ended = await rig.h.get(debate_id)
        assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.MAX_ROUNDS
        assert stores[0].refused == [1, 1]  # turn 1's save refused twice, then stored
        turns = await rig.h._turns.last_turns(debate_id, 10)
        assert [t.number for t in turns] == [1, 2, 3, 4]
        asked = sorted(r.turn for d in rig.debaters.values() for r in d.requests)
        assert asked == [1, 2, 3, 4]  # each turn asked once: turn 1's reply was kept
        assert [n for (_, n), count in rig.room.turn_posts.items() if count == 1] == [1, 2, 3, 4]
    finally:
        await rig.stop()


class TimerOutage(SqliteStore):
    """The real store, out of reach the first time a step that ends a limit's pause is saved."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.refused = 0

    async def save_step(
        self, debate: Debate, effects: Sequence[Effect], turn: Turn | None, *args: Any, **kw: Any
    ) -> None:
        resuming = any(isinstance(e, Notify) and e.key == "limits.resumed" for e in effects)
        if resuming and self.refused == 0:
            self.refused += 1
            raise StoreUnavailable("the database is out of reach")
        await super().save_step(debate, effects, turn, *args, **kw)


async def test_a_timer_due_while_the_store_is_out_of_reach_still_fires(tmp_path: Path) -> None:
    """The timers' pass waits the outage out (as a worker does) instead of raising into its
    caller and leaving every later due timer for the next pass."""
    stores: list[TimerOutage] = []

    def flaky(db: Database) -> SqliteStore:
        stores.append(TimerOutage(db))
        return stores[-1]

    rig = Rig(tmp_path / "timer.sqlite3", make_store=flaky)
    await rig.start()
    try:
        rig.debaters[CLAUDE].enqueue(DebaterError(FailureKind.LIMIT, "limit", 3600))
        made = await rig.h.propose(proposal())
        assert made is not None
        await rig.h.submit(made.id, ProposalApproved(ALICE))
        await asyncio.wait_for(rig.h.wait_idle(made.id), 10)
        assert (await rig.h.get(made.id)).people.paused == "limit"
        rig.clock.advance(3601)
        assert await rig.h.fire_due_timers() == [made.id]
        assert stores[0].refused == 1  # the outage came, and was waited out
        await asyncio.wait_for(rig.h.wait_idle(made.id), 10)
        assert (await rig.h.get(made.id)).phase.is_terminal
        assert "limits.resumed" in rig.room.notice_keys()
    finally:
        await rig.stop()
