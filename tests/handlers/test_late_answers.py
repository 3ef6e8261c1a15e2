"""An answer that comes in as the debate begins to end: paid for, so it is kept. A Stop that
lands after a debater has answered, but before its answer is stored, stores, posts and logs
it before the end (it ends nothing else); a Stop while the debater is still writing ends the
turn, as it always did."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import TracebackType

from handlers.core.events import ProposalApproved, StopRequested
from handlers.core.model import Debate, Phase
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.doubles import FakeRoom, _Working


class _HeldWorking(_Working):
    """The working indicator: once the debater answered, it stops only when let go."""

    def __init__(self, room: HeldRoom, seat: str) -> None:
        super().__init__(room, seat)
        self.held = room

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if e is None:
            self.held.answered.set()
            await self.held.let_go.wait()


class HeldRoom(FakeRoom):
    """A room whose working indicator holds the first answer until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.answered, self.let_go = asyncio.Event(), asyncio.Event()

    def working(self, debate: Debate, seat: str) -> _HeldWorking:
        return _HeldWorking(self, seat)


async def test_a_stop_that_lands_after_the_answer_came_keeps_the_answer(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "late.sqlite3")
    rig.room = HeldRoom()
    await rig.start()
    try:
        made = await rig.h.propose(proposal())
        assert made is not None
        await rig.h.submit(made.id, ProposalApproved(ALICE))
        await asyncio.wait_for(rig.room.answered.wait(), 10)  # the debater has answered
        assert (await rig.h.submit(made.id, StopRequested(ALICE))).taken
        rig.room.let_go.set()
        await asyncio.wait_for(rig.h.wait_idle(made.id), 10)
        ended = await rig.h.get(made.id)
        assert ended.phase is Phase.STOPPED and ended.floor.turns == 1 and not ended.floor.late
        [turn] = await rig.h._turns.last_turns(made.id, 10)
        assert rig.room.turn_posts[(made.id, turn.number)] == 1
        assert rig.wiki.keys[f"{made.id}:round-log:{turn.number}"] == 1
        assert ended.spend.cost_usd == turn.meta.cost_usd  # its cost counts too
    finally:
        await rig.stop()
