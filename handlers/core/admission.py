"""Whether a debate takes an event now: the one rule the state machine applies first and the
front ends answer a person with (the gateway, which runs no debate, answers from it too)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from handlers.core import events as ev
from handlers.core.credit import PAUSE_CHOICES
from handlers.core.formats import card_options, formats_for
from handlers.core.model import Actor, Debate, Phase
from handlers.core.steps import expects, late_for, skippable, step_open

MAX_BUDGET_ROUNDS = 50  # as MAX_ROUNDS allows
STOPPABLE = frozenset({Phase.SPEAKING, Phase.JUDGING, Phase.AWAITING_USER})


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
    """True if the debate, in its current state, has a use for the event."""
    match event:
        case ev.ProposalApproved() | ev.ProposalDeclined() | ev.ProposalExpired():
            return debate.phase is Phase.PROPOSED
        case ev.FormatChosen() | ev.OptionChosen() | ev.BudgetChosen():
            return debate.phase is Phase.PROPOSED and _card_choice_fits(debate, event)
        case ev.ReplyReceived() | ev.DebaterFailed():
            seat, turn = event.seat, event.turn
            return expects(debate, seat, turn) or late_for(debate, seat, turn)
        case ev.Judged():
            return (
                debate.phase is Phase.JUDGING
                and event.turn == debate.floor.turns
                and not debate.moderation.tasks
            )
        case ev.TaskDone():
            tasking = debate.phase is Phase.JUDGING or step_open(debate)
            return tasking and event.task in debate.moderation.tasks
        case ev.UserAnswered(question=number):
            return _answer_fits(debate, number)
        case ev.BudgetDecided():
            return _pause_fits(debate, event)
        case ev.PeopleSaid():
            return debate.phase in STOPPABLE and bool(event.text.strip())
        case ev.StopRequested():
            return debate.phase in STOPPABLE
        case ev.SkipRequested(seat=seat, turn=turn):  # a button's: its own turn only
            asks = [(a.participant, a.turn) for a in skippable(debate)]
            return (seat, turn) in asks if seat else bool(asks)
        case ev.ConclusionReady():
            return debate.phase is Phase.CONCLUDING
        case ev.MinorityReported() | ev.TimerDue() | ev.PollClosed():
            return True  # the poll's own rules (handlers/core/poll.py) tell
    return False


def _card_choice_fits(debate: Debate, event: ev.Event) -> bool:
    """A format the roster can run, a budget in range, or one of an option's choices."""
    match event:
        case ev.FormatChosen(format=name):
            return name in formats_for(debate.setup.roster)
        case ev.BudgetChosen(rounds=rounds):
            return 1 <= rounds <= MAX_BUDGET_ROUNDS
        case ev.OptionChosen(key=key, value=value):
            return any(o.key == key and o.valid(value) for o in card_options(debate.setup.format))
    return False


def _answer_fits(debate: Debate, question: int) -> bool:
    """A typed answer (question 0) answers whatever waits; a control's only its question."""
    if question == 0:
        return debate.phase is Phase.AWAITING_USER
    asked = debate.phase is Phase.AWAITING_USER and debate.people.user_question is not None
    return asked and question == debate.question_number


def _pause_fits(debate: Debate, event: ev.BudgetDecided) -> bool:
    """A pause's button answers that pause only (`at`: its number; 0: whichever is open). A
    pause stored before pauses were numbered (number 0) was named by the turn count."""
    this = (0, debate.people.pauses) if debate.people.pauses else (0, debate.floor.turns)
    return (
        debate.phase is Phase.AWAITING_USER
        and event.choice in PAUSE_CHOICES.get(debate.people.paused, ())
        and event.at in this
    )
