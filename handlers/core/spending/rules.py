"""The debate's one stored timer: a usage limit's reset resumes the pause that waits for it, an
ended room's grace period archives it, and the rest is the poll's end (handlers/core/poll/). A
timer nothing has a use for (a pause the people ended, a debate stopped meanwhile) changes
nothing. Pure."""

from __future__ import annotations

from handlers.core import effects as fx
from handlers.core.feature import Moment, Rule, rules
from handlers.core.model import Debate, Phase
from handlers.core.poll.rules import on_poll
from handlers.core.spending.events import TimerDue
from handlers.core.spending.limits import resumed
from handlers.core.turns.steps import Step


def _due(debate: Debate, event: TimerDue, at: Moment) -> Step:
    if waits_for_reset(debate):
        return resumed(debate)
    if debate.phase.is_terminal:  # the room checks the time is its archive's
        return Step(debate, (fx.ArchiveRoom(),))
    return on_poll(debate, event)


def waits_for_reset(debate: Debate) -> bool:
    """True if the debate waits on a usage limit's reset (its timer is the reset's time)."""
    return debate.phase is Phase.AWAITING_USER and debate.people.paused == "limit"


RULES = rules(Rule(TimerDue, _due))
