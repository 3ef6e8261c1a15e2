"""The budget the people set: picked on the card (max_rounds), and at the budget the debate
pauses for Extend by one round / Conclude now instead of ending (BUDGET_PAUSE)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from handlers.core.events import (
    BudgetChosen,
    BudgetDecided,
    ProposalApproved,
    StopRequested,
    UserAnswered,
)
from handlers.core.model import CLAUDE, FailureKind, Outcome, Phase
from handlers.ports import DebaterError
from tests.handlers.conftest import ALICE, BOB, CAROL, Rig, proposal


async def idle(rig: Rig, debate_id: int) -> None:
    await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)


async def _paused_rig(tmp_path: Path, rounds: int) -> tuple[Rig, int]:
    rig = Rig(tmp_path / "budget.sqlite3", budget_pause=True)
    await rig.start()
    made = await rig.h.propose(proposal())
    assert made is not None
    await idle(rig, made.id)
    assert made.setup.max_rounds == 3  # the configured budget, until the people pick another
    assert (
        await rig.h.submit(made.id, BudgetChosen(BOB, 1))
    ).debate.setup.max_rounds == 3  # an outsider
    assert (
        await rig.h.submit(made.id, BudgetChosen(ALICE, 0))
    ).debate.setup.max_rounds == 3  # not a budget
    assert (
        await rig.h.submit(made.id, BudgetChosen(CAROL, rounds))
    ).debate.setup.max_rounds == rounds
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    return rig, made.id


async def test_budget_reached_pauses_and_extend_runs_one_more_round(tmp_path: Path) -> None:
    rig, debate_id = await _paused_rig(tmp_path, 1)
    try:
        paused = await rig.h.get(debate_id)
        assert paused.phase is Phase.AWAITING_USER and paused.people.paused
        assert paused.floor.turns == 2 and not rig.room.conclusions  # one round: two turns
        assert rig.room.budget_asks == [(debate_id, 1)]

        # words typed while paused are kept for the moderator, not taken as a decision
        await rig.h.submit(debate_id, UserAnswered(CAROL, "한 라운드만 더 봅시다"))
        kept = await rig.h.get(debate_id)
        assert kept.people.paused and kept.people.lines[-1].text == "한 라운드만 더 봅시다"
        assert (
            await rig.h.submit(debate_id, BudgetDecided(BOB, "extend"))
        ).debate.people.paused  # an outsider cannot

        handler = await rig.rebuild()  # a restart while paused: still paused, nothing again
        await idle(rig, debate_id)
        assert (await handler.get(debate_id)).people.paused and len(rig.room.budget_asks) == 1

        await handler.submit(debate_id, BudgetDecided(ALICE, "extend"))
        await idle(rig, debate_id)
        again = await handler.get(debate_id)
        assert again.setup.max_rounds == 2 and again.floor.round == 2 and again.floor.turns == 4
        assert again.people.paused and rig.room.budget_asks == [(debate_id, 1), (debate_id, 2)]
        assert ("budget.extended", {"user": "alice", "rounds": "2"}) in [
            (key, params) for _, key, params in rig.room.notices
        ]
        # the round after the pause carries what the people typed during it
        prompts = [r.prompt for d in rig.debaters.values() for r in d.requests if r.turn == 3]
        assert prompts and "한 라운드만 더 봅시다" in prompts[0]

        await handler.submit(debate_id, BudgetDecided(CAROL, "conclude"))
        await idle(rig, debate_id)
        ended = await handler.get(debate_id)
        assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.MAX_ROUNDS
        assert not ended.people.paused and len(rig.room.conclusions) == 1
        assert "budget.concluded" in [key for _, key, _ in rig.room.notices]
        assert (
            await handler.submit(debate_id, BudgetDecided(ALICE, "extend"))
        ).debate.phase is Phase.CONCLUDED  # too late
    finally:
        await rig.stop()


async def test_budget_pause_still_stops(tmp_path: Path) -> None:
    rig, debate_id = await _paused_rig(tmp_path, 1)
    try:
        await rig.h.submit(debate_id, StopRequested(ALICE))
        await idle(rig, debate_id)
        assert (await rig.h.get(debate_id)).phase is Phase.STOPPED
        assert len(rig.room.conclusions) == 1
    finally:
        await rig.stop()


async def test_budget_pause_off_ends_at_the_budget(rig: Rig) -> None:
    made = await rig.h.propose(proposal())
    assert made is not None
    await idle(rig, made.id)
    await rig.h.submit(made.id, BudgetChosen(ALICE, 2))
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    ended = await rig.h.get(made.id)
    assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.MAX_ROUNDS
    assert ended.floor.turns == 4 and rig.room.budget_asks == []


async def test_cost_per_seat_a_dollar_budget_pauses_like_the_round_budget(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "usd.sqlite3", budget_usd=0.02)  # each scripted turn costs $0.01
    await rig.start()
    try:
        made = await rig.h.propose(proposal())
        assert made is not None and made.spend.budget_usd == 0.02
        await rig.h.submit(made.id, ProposalApproved(ALICE))
        await idle(rig, made.id)
        paused = await rig.h.get(made.id)
        assert paused.phase is Phase.AWAITING_USER and paused.people.paused == "budget"
        assert (
            paused.floor.round == 1 and paused.setup.max_rounds == 3
        )  # rounds were left: the dollars ran out
        assert paused.spend.seats == (("ag", 0.01), ("claude", 0.01))

        await rig.h.submit(made.id, BudgetDecided(ALICE, "extend"))  # one round's cost more
        await idle(rig, made.id)
        again = await rig.h.get(made.id)
        assert (
            again.floor.round == 2
            and again.people.paused == "budget"
            and again.spend.budget_usd == 0.04
        )
        assert ("budget.extended_usd", {"user": "alice", "usd": "0.04"}) in [
            (key, params) for _, key, params in rig.room.notices
        ]
        await rig.h.submit(made.id, BudgetDecided(ALICE, "conclude"))
        await idle(rig, made.id)
        assert (await rig.h.get(made.id)).ending.outcome is Outcome.MAX_ROUNDS
    finally:
        await rig.stop()


async def test_a_turn_the_dollar_cap_stopped_pauses_for_the_people_and_is_asked_again(
    tmp_path: Path,
) -> None:
    """Each turn is asked with what is left of the budget as its cap; one the cap stopped
    before it wrote anything pauses the debate as the budget does (its cost counted), and
    Extend asks that same turn again with the larger budget."""
    rig = Rig(tmp_path / "cap.sqlite3", budget_usd=0.05)
    await rig.start()
    try:
        stopped = DebaterError(FailureKind.BUDGET, "Reached maximum budget", cost_usd=0.04)
        rig.debaters[CLAUDE].enqueue(stopped)
        made = await rig.h.propose(proposal())
        assert made is not None
        await rig.h.submit(made.id, ProposalApproved(ALICE))
        await idle(rig, made.id)
        paused = await rig.h.get(made.id)
        assert paused.phase is Phase.AWAITING_USER and paused.people.paused == "spent"
        asked = [r for d in rig.debaters.values() for r in d.requests]
        assert asked and all(r.budget_usd is not None and r.budget_usd <= 0.05 for r in asked)
        assert paused.spend.of(CLAUDE) == 0.04  # the stopped call's cost is on its account
        assert rig.room.budget_asks[-1][0] == made.id  # the budget's own buttons
        claude_turn = next(a.turn for a in paused.floor.asked if a.participant == CLAUDE)

        await rig.h.submit(made.id, BudgetDecided(ALICE, "extend"))
        await idle(rig, made.id)
        going = await rig.h.get(made.id)
        assert going.spend.budget_usd > 0.05
        again = [r for r in rig.debaters[CLAUDE].requests if r.turn == claude_turn]
        assert len(again) == 2  # the stopped turn, asked once more
        assert rig.room.turn_posts[(made.id, claude_turn)] == 1  # answered, posted once
    finally:
        await rig.stop()
