"""The lease runner of a process that shares the debates, on both stores: the inbox
applied in order and once, a late renewal stopping the running turn, ended debates given up."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from bot.root.inbox_engine import InboxEngine
from bot.root.lease_runner import LeaseRunner
from handlers.core.admission import Admission
from handlers.core.events import BudgetChosen, ProposalApproved, ProposalDeclined
from handlers.core.model import Debate, Phase
from tests.handlers.conftest import ALICE, BOB, CAROL, proposal
from tests.handlers.doubles import reply
from tests.handlers.test_leased_engine import LeasedRig, idle, pair  # noqa: F401  # a fixture
from tests.tools.store.test_store_steps import use_store
from tools.store.inbox import INSERT, Inbox
from tools.store.leases import LeasedStore


class Outbox:
    """The runner's view of the wiki outbox: nothing pending."""

    def __init__(self) -> None:
        self.resumed: list[int] = []

    def resume(self, debate_id: int) -> None:
        self.resumed.append(debate_id)

    async def pending(self, debate_id: int) -> int:
        return 0


def runner_of(
    rig: LeasedRig, shown: list[Debate] | None = None, claimed: list[int] | None = None
) -> LeaseRunner:
    """The rig's runner; `shown` gets each debate whose status it shows again, `claimed` a
    mark each time it tells the timer driver of a debate claimed."""
    assert rig.leases is not None and rig.db is not None

    async def show(debate: Debate) -> None:
        if shown is not None:
            shown.append(debate)

    return LeaseRunner(
        rig.leases,
        rig.h,
        Outbox(),  # type: ignore[arg-type]  # the runner asks it only resume() and pending()
        Inbox(rig.db),
        capacity=5,
        poll_s=1.0,
        claimed=(lambda: claimed.append(1)) if claimed is not None else (lambda: None),
        show_status=show,
    )


async def test_a_debate_claimed_wakes_the_timer_driver(
    pair: tuple[LeasedRig, LeasedRig],  # noqa: F811  # the imported fixture, by name
) -> None:
    holder, gateway_rig = pair
    claimed: list[int] = []
    gateway, runner = gateway_of(gateway_rig), runner_of(holder, claimed=claimed)
    debate = await gateway.propose(proposal())
    assert debate is not None
    await runner.tick()  # claims it: its timers, stored by whichever process, are read now
    await idle(holder, debate.id)
    assert claimed == [1]
    await runner.tick()  # held already: nothing new to read
    assert claimed == [1]


def gateway_of(rig: LeasedRig) -> InboxEngine:
    """The front's engine in a process that runs nothing (its engine holds no lease)."""
    assert rig.db is not None
    return InboxEngine(rig.h, rig.h._debates, Inbox(rig.db))


async def test_commands_are_applied_in_order_once_by_the_holder(
    pair: tuple[LeasedRig, LeasedRig],  # noqa: F811  # the imported fixture, by name
) -> None:
    holder, gateway_rig = pair
    gateway, runner = gateway_of(gateway_rig), runner_of(holder)
    debate = await gateway.propose(proposal())
    assert debate is not None
    await runner.tick()  # claims the proposal and posts its card
    await idle(holder, debate.id)
    assert holder.room.cards == [debate.id] and gateway_rig.room.cards == []

    # what the person is told at once, before anyone applied it: the same rule as the engine's
    assert (await gateway.submit(debate.id, BudgetChosen(ALICE, 5))).admission is Admission.TAKEN
    refused = await gateway.submit(debate.id, BudgetChosen(BOB, 2))  # bob may not
    assert refused.admission is Admission.REFUSED
    not_one = await gateway.submit(debate.id, BudgetChosen(ALICE, 0))  # not a budget: not stored
    assert not_one.admission is Admission.NOT_NOW
    assert await Inbox(holder.db).count(debate.id) == 1  # type: ignore[arg-type]  # the rig's database, open once started
    await gateway.submit(debate.id, BudgetChosen(ALICE, 4))
    await runner.tick()
    await runner.tick()  # nothing left: nothing applied twice
    stored = await gateway.get(debate.id)
    assert stored.setup.max_rounds == 4 and await Inbox(holder.db).count(debate.id) == 0  # type: ignore[arg-type]  # the rig's database, open once started


async def test_of_two_opens_through_the_gateway_the_first_is_applied_the_second_answered(
    pair: tuple[LeasedRig, LeasedRig],  # noqa: F811  # the imported fixture, by name
) -> None:
    holder, gateway_rig = pair
    gateway, runner = gateway_of(gateway_rig), runner_of(holder)
    debate = await gateway.propose(proposal())
    assert debate is not None
    await runner.tick()
    await idle(holder, debate.id)
    assert (await gateway.submit(debate.id, ProposalDeclined(ALICE))).taken
    second = await gateway.submit(debate.id, ProposalApproved(CAROL))  # before it is applied
    assert (second.admission, second.first) == (Admission.ANSWERED, ProposalDeclined(ALICE))
    await runner.tick()
    await idle(holder, debate.id)
    assert (await gateway.get(debate.id)).phase is Phase.DECLINED


async def test_a_renewal_that_comes_back_late_stops_the_turn_and_runs_it_again(
    pair: tuple[LeasedRig, LeasedRig],  # noqa: F811  # the imported fixture, by name
) -> None:
    holder, _ = pair
    assert holder.clocks is not None
    runner = runner_of(holder)
    debate = await holder.h.propose(proposal())
    assert debate is not None
    await runner.tick()
    await idle(holder, debate.id)
    asked, never, calls = asyncio.Event(), asyncio.Event(), []

    async def stuck_once() -> str:
        calls.append(len(calls))
        if len(calls) == 1:  # the first turn hangs until it is stopped from outside
            asked.set()
            await never.wait()
        return reply("an answer")

    for debater in holder.debaters.values():
        debater.enqueue(stuck_once)
    await holder.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(asked.wait(), 10)

    await holder.clocks.advance(25)  # past the margin, inside the lease: nobody else may claim yet
    await runner.renew()  # stops the turn, renews (the lease had not lapsed), runs it again
    # Stopping the debate is a crash to it: effects run since its last step run again (the
    # ports' keys make that invisible: each turn is still posted once, checked below).
    holder.plan.fired = True
    await idle(holder, debate.id)
    final = await holder.h.get(debate.id)
    assert final.phase is Phase.CONCLUDED and final.floor.turns == 2
    assert holder.room.turn_posts == Counter({(debate.id, 1): 1, (debate.id, 2): 1})
    asked_turns = [r.turn for d in holder.debaters.values() for r in d.requests]
    assert sorted(asked_turns) == [1, 1, 2]  # turn 1 asked again after the stop


async def test_an_ended_debate_is_given_up(pair: tuple[LeasedRig, LeasedRig]) -> None:  # noqa: F811  # the imported fixture, by name
    holder, other = pair
    shown: list[Debate] = []
    runner = runner_of(holder, shown)
    debate = await holder.h.propose(proposal())
    assert debate is not None
    await runner.tick()
    await idle(holder, debate.id)
    await holder.h.submit(debate.id, ProposalDeclined(ALICE))
    await idle(holder, debate.id)
    await runner.tick()
    assert holder.leases is not None and holder.leases.held() == []
    assert other.leases is not None and await other.leases.claim(5) == []  # nothing to run
    assert shown == []  # nobody held it before: its status is shown once, as it ended


async def test_a_debate_taken_over_shows_its_final_status_again_once_the_last_holder_is_done(
    pair: tuple[LeasedRig, LeasedRig],  # noqa: F811  # the imported fixture, by name
) -> None:
    first, second = pair
    assert first.clocks is not None and second.leases is not None
    shown: list[Debate] = []
    runners = runner_of(first), runner_of(second, shown)
    debate = await first.h.propose(proposal())
    assert debate is not None
    await runners[0].tick()  # the first holds it
    await idle(first, debate.id)
    await first.clocks.advance(31)  # paused past its lease, not dead: the second takes over
    await runners[1].tick()
    await second.h.submit(debate.id, ProposalDeclined(ALICE))
    await idle(second, debate.id)
    await runners[1].tick()
    assert shown == [] and second.leases.held() == [debate.id]  # the first may still land a write

    await first.clocks.advance(20)
    await runners[1].renew()
    await first.clocks.advance(11)  # a whole lease since the takeover
    await runners[1].tick()
    assert [d.phase for d in shown] == [Phase.DECLINED]  # shown again, over whatever landed
    assert second.leases.held() == []  # then given up


async def test_a_command_that_keeps_failing_is_given_up_after_a_few_passes(
    pair: tuple[LeasedRig, LeasedRig],  # noqa: F811  # the imported fixture, by name
) -> None:
    holder, _ = pair
    runner, inbox = runner_of(holder), Inbox(holder.db)  # type: ignore[arg-type]  # the rig's database, open once started
    debate = await holder.h.propose(proposal())
    assert debate is not None
    await runner.tick()
    await idle(holder, debate.id)
    use_store(holder.h, RefusesCommands(holder.db, holder.leases))  # type: ignore[arg-type]  # the rig's database, open once started
    await inbox.put(debate.id, BudgetChosen(ALICE, 5))
    await runner.tick()
    await runner.tick()
    assert await inbox.count(debate.id) == 1  # tried again: a hiccup would lose no click
    await runner.tick()
    assert await inbox.count(debate.id) == 0


async def test_a_stored_command_that_is_not_an_event_is_dropped(
    pair: tuple[LeasedRig, LeasedRig],  # noqa: F811  # the imported fixture, by name
) -> None:
    holder, _ = pair
    assert holder.db is not None
    inbox = Inbox(holder.db)
    debate = await holder.h.propose(proposal())
    assert debate is not None
    await holder.db.execute(
        INSERT, (debate.id, "stop", '{"args": []}', "2026-12-01T00:00:00", None)
    )
    assert await inbox.pending([debate.id]) == [] and await inbox.count(debate.id) == 0


class RefusesCommands(LeasedStore):
    """The real store, whose every step made by an inbox command fails (not an outage)."""

    async def save_step(self, *args: Any, command: int | None = None, **kw: Any) -> None:
        if command is not None:
            raise RuntimeError("this command's step cannot be stored")
        await super().save_step(*args, **kw)
