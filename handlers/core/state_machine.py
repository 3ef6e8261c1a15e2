"""The debate's rules as a pure function: (debate, event, now, rng) -> step.

Time and randomness come in as arguments; what should happen in the world comes out as
effects for the handler to store and then run. Each event's rule is its feature package's
(handlers/core/<feature>/rules.py, assembled in handlers/core/table.py); what follows a step is
the format's to say (handlers/core/formats/).
"""

from __future__ import annotations

import random
from datetime import datetime

from handlers.core import events as ev
from handlers.core.admission import Admission, admits
from handlers.core.feature import Moment
from handlers.core.model import Debate
from handlers.core.table import after, rule_for
from handlers.core.turns.steps import Step


def transition(debate: Debate, event: ev.Event, now: datetime, rng: random.Random) -> Step:
    """Apply one event; one the debate does not admit now (see admission.py) changes nothing."""
    rule = rule_for(event)
    if rule is None or admits(debate, event) is not Admission.TAKEN:
        return Step(debate)
    step: Step = rule.apply(debate, event, Moment(now, rng))
    for follower in after(event):
        step = follower.follow(debate, event, step)
    return step
