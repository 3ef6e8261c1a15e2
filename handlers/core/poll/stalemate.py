"""When a debate is stuck: the sides still disagree at the round limit, or the meter stays low
for two rounds. Then the moderator writes a minority report and the people decide by poll.
Pure; imported by handlers/core/turns/steps.py (so it imports no step machinery)."""

from __future__ import annotations

from dataclasses import replace

from handlers.core.effects import Effect, Notify, RunTask, UpdateStatus
from handlers.core.formats import format_named
from handlers.core.model import Debate, Phase, Stance
from handlers.core.poll.state import MINORITY_TASK, PeoplePoll

HIGH = 0.8  # an estimate at least this high counts as converging (the meter's buttons)
LOW = 0.4  # every estimate of two rounds below this: the debate is stuck


def polls(debate: Debate) -> bool:
    """Pauses and polls are set, the format ends a stalemate in a poll, and none ran yet."""
    return (
        debate.setup.pauses_at_budget
        and debate.setup.poll_hours > 0
        and format_named(debate.setup.format).stalemate_poll
        and debate.poll is None
    )


def disagreeing(debate: Debate) -> bool:
    """A participant's latest stated stance is `disagree`: there are sides to vote between."""
    return any(stance is Stance.DISAGREE for _, stance in debate.floor.stances)


def stuck_at_limit(debate: Debate) -> bool:
    """At the round limit without consensus: the sides disagree and the meter is not high
    (a high meter gets the convergence buttons instead)."""
    latest = debate.moderation.consensus_trend[-1] if debate.moderation.consensus_trend else 0.0
    return polls(debate) and disagreeing(debate) and latest < HIGH


def stuck_for_two_rounds(debate: Debate) -> bool:
    """Every estimate of the last two rounds is low, and the sides disagree."""
    window = 2 * len(debate.ids)
    trend = debate.moderation.consensus_trend[-window:]
    low = debate.floor.round >= 2 and len(trend) == window and all(v < LOW for v in trend)
    return polls(debate) and disagreeing(debate) and low


def reporting(debate: Debate) -> tuple[Debate, tuple[Effect, ...]]:
    """The debate paused for the people's poll; the moderator writes the minority report."""
    paused = replace(
        debate,
        phase=Phase.AWAITING_USER,
        poll=PeoplePoll(debate.setup.poll_hours),
        people=replace(debate.people, paused="poll"),
        floor=replace(debate.floor, speaker=None, asked=(), attempt=0),
        moderation=replace(debate.moderation, tasks=(MINORITY_TASK,)),
    )
    return paused, (Notify("poll.stalemate"), UpdateStatus(), RunTask(MINORITY_TASK))
