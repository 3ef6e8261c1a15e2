"""The engine under a lease: two engines on one database, as two processes would be.

The first holds the debate and is paused in the middle of a turn past its lease; the second
claims it and finishes it; the first, resumed, stores and posts nothing more.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from handlers.core.events import ProposalApproved
from handlers.core.model import Phase
from handlers.debate_handler import DebateHandler, HandlerConfig
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.doubles import Seats, reply
from tests.tools.store.test_leases import Clocks
from tools.store.db import Database
from tools.store.leases import LeasedStore, Leases, LeaseTiming


@dataclass
class LeasedRig(Rig):
    """A rig whose engine acts only on the debates its lease set holds."""

    target: str = ""
    owner: str = "a"
    clocks: Clocks | None = None
    leases: Leases | None = None

    async def start(self) -> DebateHandler:
        assert self.clocks is not None
        self.db = await Database.open(self.target)
        clocks = self.clocks
        self.leases = Leases(self.db, self.owner, LeaseTiming(30), monotonic=clocks.monotonic)
        clocks.db = clocks.db or self.db
        self.handler = DebateHandler(  # as bot.root.engine builds it with leases
            LeasedStore(self.db, self.leases).ports(),
            self.moderator,
            {m.backend: Seats(m.backend, self.debaters) for m in self.roster},
            self.wiki,
            self.room,
            self.clock,
            random.Random(self.seed),
            HandlerConfig(max_rounds=self.max_rounds, roster=self.roster),
            guard=self.leases,
        )
        return self.handler

    async def claim(self) -> list[int]:
        assert self.leases is not None
        taken = await self.leases.claim(5)
        for debate_id in taken:
            self.h.wake(debate_id)
        return taken


@pytest.fixture
async def pair(database_target: str) -> AsyncIterator[tuple[LeasedRig, LeasedRig]]:
    clocks = Clocks()
    rigs = (
        LeasedRig(database_target, target=database_target, owner="a", clocks=clocks, max_rounds=1),
        LeasedRig(database_target, target=database_target, owner="b", clocks=clocks, max_rounds=1),
    )  # Rig's path is unused here: `target` names the database
    for rig in rigs:
        await rig.start()
    yield rigs
    for rig in rigs:
        await rig.stop()


async def idle(rig: Rig, debate_id: int) -> None:
    await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)


async def test_an_engine_without_the_lease_runs_nothing(pair: tuple[LeasedRig, LeasedRig]) -> None:
    first, _ = pair
    debate = await first.h.propose(proposal())
    assert debate is not None
    await idle(first, debate.id)
    assert first.room.cards == []  # stored, not run: whoever claims it posts the card
    assert await first.claim() == [debate.id]
    await idle(first, debate.id)
    assert first.room.cards == [debate.id]


async def test_a_holder_paused_past_its_lease_stores_and_posts_nothing_more(
    pair: tuple[LeasedRig, LeasedRig],
) -> None:
    first, second = pair
    assert first.clocks is not None
    debate = await first.h.propose(proposal())
    assert debate is not None
    await first.claim()
    await idle(first, debate.id)
    asked, resume = asyncio.Event(), asyncio.Event()

    async def paused() -> str:
        asked.set()
        await resume.wait()  # the process is paused here, in the middle of the turn
        return reply("a late reply that nobody must see")

    for debater in first.debaters.values():
        debater.enqueue(paused)
    await first.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(asked.wait(), 10)

    await first.clocks.advance(31)  # a's lease lapses while it is paused
    assert await second.claim() == [debate.id]
    await idle(second, debate.id)  # b runs the debate to its end
    resume.set()
    await idle(first, debate.id)  # a wakes up: its step is refused, it lets the debate go

    final = await second.h.get(debate.id)
    assert final.phase is Phase.CONCLUDED and final.floor.turns == 2
    posts = first.room.turn_posts + second.room.turn_posts
    assert posts == Counter({(debate.id, 1): 1, (debate.id, 2): 1})
    assert first.room.turn_posts == Counter() and first.room.conclusions == []
    turns = await second.h._turns.last_turns(debate.id, 10)
    assert "late reply" not in "".join(t.text for t in turns)


async def test_two_engines_proposing_one_chat_at_once_store_one_card(
    pair: tuple[LeasedRig, LeasedRig],
) -> None:
    first, second = pair  # two gateway processes that both detected the same chat
    made = await asyncio.gather(first.h.propose(proposal()), second.h.propose(proposal()))
    assert len([debate for debate in made if debate is not None]) == 1
    assert await first.h._cards.waiting_cards(1) == 1
