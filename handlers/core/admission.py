"""Whether a debate takes an event now: the one rule the state machine applies first and the
front ends answer a person with (the gateway, which runs no debate, answers from it too)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from handlers.core import events as ev
from handlers.core.model import Actor, Debate
from handlers.core.table import rule_for


class Admission(enum.Enum):
    """What a debate does with an event: takes it, cannot now, or refuses the person."""

    TAKEN = "taken"
    NOT_NOW = "not_now"  # the debate has moved on (or the choice is not one it offers)
    ANSWERED = "answered"  # the question it answers was answered already (by someone else)
    REFUSED = "refused"  # the person may not act on this debate


@dataclass(frozen=True)
class Submitted:
    """What a front end needs to answer the person: whether the debate took the event, and
    the debate after it (None where it is not known yet: the gateway stored it for later)."""

    admission: Admission
    debate: Debate | None = None
    first: ev.Event | None = None  # ANSWERED by the gateway: the answer stored first (unapplied)

    @property
    def taken(self) -> bool:
        """True if the debate took the event."""
        return self.admission is Admission.TAKEN


def authorized(debate: Debate, actor: Actor) -> bool:
    """Only the people of the conversation, or holders of the approver role, may act."""
    return actor.is_approver or actor.user_id in debate.people_ids


def admits(debate: Debate, event: ev.Event) -> Admission:
    """The admission of `event` by `debate` as it stands: a person's event is refused unless
    they may act; any event that does not fit the debate's state is not taken now."""
    actor = acting(event)
    if actor is not None and not authorized(debate, actor):
        return Admission.REFUSED
    if _fits(debate, event):
        return Admission.TAKEN
    if isinstance(event, ev.UserAnswered) and 0 < event.question < debate.question_number:
        return Admission.ANSWERED
    return Admission.NOT_NOW


def answers(debate: Debate, event: ev.Event) -> str | None:
    """What the event answers that only one person may (the open question, a pause of any
    kind, the card), as the gateway's inbox keeps one answer to each; None for any other."""
    match event:
        case ev.UserAnswered() if (
            debate.people.user_question is not None and not debate.people.paused
        ):
            return f"question:{debate.question_number}"
        case ev.BudgetDecided() if debate.people.paused:  # each pause has its number
            return f"pause:{debate.people.pauses}"
        case ev.ProposalApproved() | ev.ProposalDeclined():
            return "card"
    return None


def acting(event: ev.Event) -> Actor | None:
    """Who must be authorized for the event (None: the engine's own, or anyone's words)."""
    if isinstance(event, ev.PeopleSaid):
        return None  # words typed in the room are kept whoever typed them
    return getattr(event, "actor", None)


def _fits(debate: Debate, event: ev.Event) -> bool:
    """True if the debate, in its current state, has a use for the event (its feature's rule)."""
    rule = rule_for(event)
    return rule is not None and rule.fits(debate, event)
