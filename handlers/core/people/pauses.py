"""The convergence meter: the moderator's consensus estimates over the turns, and
the pause when they stay high but nobody concludes. Pure, like the state machine."""

from __future__ import annotations

import random
from dataclasses import replace

from handlers.core.effects import Notify
from handlers.core.events import BudgetDecided
from handlers.core.model import Debate, Outcome
from handlers.core.poll.stalemate import HIGH
from handlers.core.spending.limits import resumed
from handlers.core.turns.steps import Step, conclude, format_of, pause_at_budget, run_plan

__all__ = ["HIGH", "converging", "converging_pause", "decided", "meter", "spent_pause"]

TREND_KEPT = 12  # estimates kept: the status line shows the latest few
HIGH_IN_A_ROW = 2  # this many judgements in a row, then the people are asked at a round's end
BARS = "▁▂▃▄▅▆▇█"
METER_WIDTH = 6


def converging(debate: Debate) -> bool:
    """The last judgements all put consensus high, yet the moderator did not conclude."""
    latest = debate.moderation.consensus_trend[-HIGH_IN_A_ROW:]
    return len(latest) == HIGH_IN_A_ROW and all(value >= HIGH for value in latest)


def converging_pause(judged: Debate, step: Step) -> Step:
    """Before a new round starts while the meter stays high, the people decide: declare
    consensus, one more round, or conclude as is (only where the people set pauses)."""
    starts_round = step.debate.floor.round > judged.floor.round
    if not (judged.setup.pauses_at_budget and starts_round and converging(judged)):
        return step
    return pause_at_budget(judged, "converging")


def spent_pause(judged: Debate, step: Step) -> Step:
    """Before a new round once the people's dollar budget is spent, they decide (always)."""
    if step.debate.floor.round > judged.floor.round and judged.spend.over(judged.spend.cost_usd):
        return pause_at_budget(judged)
    return step


def meter(trend: tuple[float, ...]) -> str:
    """`▃▅▇` for the latest estimates, one bar each (empty before the first judgement)."""
    top = len(BARS) - 1
    return "".join(BARS[round(max(0.0, min(1.0, v)) * top)] for v in trend[-METER_WIDTH:])


def decided(debate: Debate, event: BudgetDecided, rng: random.Random) -> Step:
    """The people's word at a pause: consensus, one more round (the budget grows), or conclude."""
    who = event.actor.shown_name
    if event.choice == "resume":
        return resumed(debate, who)
    if event.choice == "consensus":  # the end clears the pause (and posts what it held)
        notice = Notify("convergence.declared", (("user", who),))
        return conclude(debate, Outcome.CONSENSUS, notice, declared=True)
    if event.choice == "conclude":
        return conclude(debate, Outcome.MAX_ROUNDS, Notify("budget.concluded", (("user", who),)))
    going = replace(debate, people=replace(debate.people, paused=""))
    spent = debate.spend.over(debate.spend.cost_usd)
    if debate.people.paused == "spent" or (debate.people.paused == "budget" and spent):
        round_cost = debate.spend.cost_usd / max(debate.floor.round, 1)
        more = debate.spend.budget_usd + round_cost
        going = replace(going, spend=replace(debate.spend, budget_usd=more))
        notice = Notify("budget.extended_usd", (("user", who), ("usd", f"{more:.2f}")))
    elif debate.people.paused == "budget":
        going = replace(going, setup=replace(going.setup, max_rounds=debate.setup.max_rounds + 1))
        notice = Notify("budget.extended", (("user", who), ("rounds", str(going.setup.max_rounds))))
    else:
        notice = Notify("convergence.one_more", (("user", who),))
    if debate.people.paused == "spent":  # the turns stopped at the cap are asked again
        again = resumed(going, unbench=False)
        return Step(again.debate, (notice, *again.effects[1:]))  # its own notice: not this
    step = run_plan(format_of(going).resumed(going, rng))
    return Step(step.debate, (notice, *step.effects))
