"""The convergence meter: the moderator's consensus estimates kept over the turns; when they
stay high but nobody concludes, the people decide at the round's end (declare consensus, one
more round, conclude as is). No extra moderator request."""

from __future__ import annotations

import asyncio
from pathlib import Path

from handlers.core.events import BudgetDecided, ProposalApproved
from handlers.core.model import Action, Decision, Outcome, Phase
from handlers.core.people.pauses import meter
from tests.handlers.conftest import ALICE, BOB, CAROL, Rig, proposal


def high(value: float) -> Decision:
    return Decision(action=Action.CONTINUE, consensus=value, summary=f"at {value}")


async def idle(rig: Rig, debate_id: int) -> None:
    await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)


async def _open(rig: Rig) -> int:
    made = await rig.h.propose(proposal())
    assert made is not None
    await idle(rig, made.id)
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    return made.id


def test_convergence_meter_draws_the_latest_estimates() -> None:
    assert meter(()) == ""
    assert meter((0.0, 0.5, 1.0)) == "▁▅█"
    assert meter((0.2,) * 10) == "▂" * 6  # the latest six
    assert meter((-1.0, 2.0)) == "▁█"  # out of range is clamped


async def test_convergence_stays_high_pauses_then_declared_consensus(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "c.sqlite3", budget_pause=True)
    await rig.start()
    try:
        rig.moderator.enqueue(high(0.85), high(0.9))
        debate_id = await _open(rig)
        paused = await rig.h.get(debate_id)
        assert paused.moderation.consensus_trend == (0.85, 0.9)
        assert paused.people.paused == "converging" and paused.phase is Phase.AWAITING_USER
        assert paused.floor.round == 1 and paused.floor.turns == 2  # before round 2 began
        assert len(rig.moderator.views) == 2  # the meter cost no extra request
        assert rig.room.budget_asks == [(debate_id, 3)]

        assert (
            await rig.h.submit(debate_id, BudgetDecided(BOB, "consensus"))
        ).debate.people.paused  # an outsider
        handler = await rig.rebuild()  # a restart while the buttons wait
        await idle(rig, debate_id)
        assert len(rig.room.budget_asks) == 1
        await handler.submit(debate_id, BudgetDecided(CAROL, "consensus", at=1))  # pause 1
        await idle(rig, debate_id)
        ended = await handler.get(debate_id)
        assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.CONSENSUS
        assert ("convergence.declared", {"user": "carol"}) in [
            (key, params) for _, key, params in rig.room.notices
        ]
    finally:
        await rig.stop()


async def test_convergence_one_more_round_then_conclude_as_is(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "c.sqlite3", budget_pause=True)
    await rig.start()
    try:
        rig.moderator.enqueue(high(0.85), high(0.9), high(0.95), high(0.95))
        debate_id = await _open(rig)
        assert (
            await rig.h.submit(debate_id, BudgetDecided(ALICE, "extend", at=2))
        ).debate.people.paused  # not this pause's button (this is the first)
        await rig.h.submit(debate_id, BudgetDecided(ALICE, "extend", at=1))
        await idle(rig, debate_id)
        again = await rig.h.get(debate_id)
        assert (
            again.people.paused == "converging"
            and again.floor.round == 2
            and again.floor.turns == 4
        )
        assert again.setup.max_rounds == 3  # one more round is not a bigger budget
        assert "convergence.one_more" in [key for _, key, _ in rig.room.notices]
        await rig.h.submit(debate_id, BudgetDecided(CAROL, "conclude"))
        await idle(rig, debate_id)
        ended = await rig.h.get(debate_id)
        assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.MAX_ROUNDS
    finally:
        await rig.stop()


async def test_convergence_low_or_unsteady_does_not_pause(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "c.sqlite3", budget_pause=True)
    await rig.start()
    try:
        rig.moderator.enqueue(high(0.9), high(0.4), high(0.9), high(0.3), high(0.5))
        debate_id = await _open(rig)
        debate = await rig.h.get(debate_id)
        # no two high estimates in a row at a round's end: only the budget pause, at the end
        assert debate.people.paused == "budget" and debate.floor.turns == 6
        assert debate.moderation.consensus_trend == (0.9, 0.4, 0.9, 0.3, 0.5)
    finally:
        await rig.stop()


async def test_convergence_pause_needs_the_people_set_budget(rig: Rig) -> None:
    rig.moderator.enqueue(high(0.85), high(0.9), high(0.9), high(0.9), high(0.9))
    debate_id = await _open(rig)  # BUDGET_PAUSE off: the debate runs on, as before
    ended = await rig.h.get(debate_id)
    assert ended.phase is Phase.CONCLUDED and not rig.room.budget_asks
