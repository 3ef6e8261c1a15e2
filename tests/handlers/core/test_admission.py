"""Table-driven tests of the one admission rule, and of the people's Skip it admits."""

from __future__ import annotations

import pytest

from handlers.core.admission import Admission, admits, answers
from handlers.core.effects import AppendRoundLog, AskDebater, Notify, PostTurn
from handlers.core.events import (
    EVENT_ADAPTER,
    BudgetChosen,
    BudgetDecided,
    Event,
    FormatChosen,
    OptionChosen,
    PeopleSaid,
    ProposalApproved,
    ProposalDeclined,
    SkipRequested,
    StopRequested,
    UserAnswered,
)
from handlers.core.model import AG, CLAUDE, Debate, PeopleLine, Phase, UserQuestion
from tests.handlers.conftest import ALICE, APPROVER, BOB
from tests.handlers.core.test_state_machine import answer, debate, speaking, step

TAKEN, NOT_NOW, REFUSED = Admission.TAKEN, Admission.NOT_NOW, Admission.REFUSED
ANSWERED = Admission.ANSWERED
FIRST = PeopleLine(who="carol", text="Delete", question="1?")
ASKED_SECOND = speaking(
    phase=Phase.AWAITING_USER, people=(FIRST,), user_question=UserQuestion("2?", ("LRU",))
)


@pytest.mark.parametrize(
    ("state", "event", "admission"),
    [
        (debate(), ProposalApproved(ALICE), TAKEN),
        (debate(), ProposalApproved(BOB), REFUSED),
        (debate(phase=Phase.SPEAKING), ProposalApproved(ALICE), NOT_NOW),
        (debate(phase=Phase.SPEAKING), ProposalApproved(BOB), REFUSED),  # refused first
        (debate(), FormatChosen(ALICE, "nonesuch"), NOT_NOW),
        (debate(), FormatChosen(APPROVER, "free"), TAKEN),
        (debate(), BudgetChosen(ALICE, 0), NOT_NOW),
        (debate(), BudgetChosen(ALICE, 51), NOT_NOW),
        (debate(), BudgetChosen(ALICE, 5), TAKEN),
        (debate(), OptionChosen(ALICE, "nonesuch", "x"), NOT_NOW),
        (debate(phase=Phase.DECLINED), ProposalDeclined(ALICE), NOT_NOW),
        (speaking(), StopRequested(ALICE), TAKEN),
        (speaking(), StopRequested(BOB), REFUSED),
        (speaking(), SkipRequested(ALICE), TAKEN),
        (speaking(), SkipRequested(BOB), REFUSED),
        (speaking(phase=Phase.JUDGING), SkipRequested(ALICE), NOT_NOW),  # nobody answering
        (debate(), SkipRequested(ALICE), NOT_NOW),
        (speaking(), UserAnswered(ALICE, "x"), NOT_NOW),
        (speaking(phase=Phase.AWAITING_USER), UserAnswered(ALICE, "x"), TAKEN),
        (speaking(), PeopleSaid(BOB, "x"), TAKEN),  # words are kept, whoever typed them
        (speaking(), PeopleSaid(ALICE, "  "), NOT_NOW),
        (speaking(phase=Phase.AWAITING_USER), BudgetDecided(ALICE, "extend"), NOT_NOW),
        (
            speaking(phase=Phase.AWAITING_USER, paused="budget", turns=4, pauses=3),
            BudgetDecided(ALICE, "extend", at=2),  # a button of an earlier pause
            NOT_NOW,
        ),
        (
            speaking(phase=Phase.AWAITING_USER, paused="budget", turns=4, pauses=3),
            BudgetDecided(ALICE, "extend", at=3),
            TAKEN,
        ),
        (
            speaking(phase=Phase.AWAITING_USER, paused="limit", turns=4, pauses=3),
            BudgetDecided(ALICE, "resume", at=4),  # a turn count is no pause's number
            NOT_NOW,
        ),
        (
            speaking(phase=Phase.AWAITING_USER, paused="budget", turns=4),
            BudgetDecided(ALICE, "extend", at=4),  # stored before pauses had numbers
            TAKEN,
        ),
        (speaking(), answer(AG, 1), TAKEN),
        (speaking(), answer(CLAUDE, 1), NOT_NOW),
        # a control names what it answers: this turn, this question
        (speaking(AG), SkipRequested(ALICE, AG, 1), TAKEN),
        (speaking(AG), SkipRequested(ALICE, CLAUDE, 1), NOT_NOW),  # not the turn open now
        (speaking(AG), SkipRequested(ALICE, AG, 2), NOT_NOW),
        (ASKED_SECOND, UserAnswered(ALICE, "x", question=2), TAKEN),
        (ASKED_SECOND, UserAnswered(ALICE, "x", question=1), ANSWERED),  # a stale button
        (ASKED_SECOND, UserAnswered(ALICE, "x", question=3), NOT_NOW),
        (ASKED_SECOND, UserAnswered(ALICE, "x"), TAKEN),  # typed: whatever is open
        (speaking(people=(FIRST,)), UserAnswered(ALICE, "x", question=1), ANSWERED),
        (
            speaking(phase=Phase.AWAITING_USER, paused="budget"),
            UserAnswered(ALICE, "x", 1),
            NOT_NOW,
        ),
    ],
)
def test_admission(state: Debate, event: Event, admission: Admission) -> None:
    assert admits(state, event) is admission


@pytest.mark.parametrize(
    "state",
    [debate(), speaking(phase=Phase.AWAITING_USER), speaking(phase=Phase.CONCLUDED)],
)
@pytest.mark.parametrize(
    "event", [ProposalApproved(BOB), SkipRequested(BOB), FormatChosen(BOB, "x")]
)
def test_an_event_not_taken_changes_nothing(state: Debate, event: Event) -> None:
    assert admits(state, event) is not TAKEN
    assert step(state, event).debate == state


def test_a_skip_moves_the_round_on_and_the_thread_says_who() -> None:
    after = step(speaking(AG), SkipRequested(ALICE))
    assert after.debate.phase is Phase.SPEAKING and after.debate.floor.speaker == CLAUDE
    assert after.debate.floor.spoken == (AG,) and after.debate.floor.skipped == 0  # not a failure
    notice = next(e for e in after.effects if isinstance(e, Notify))
    assert (notice.key, dict(notice.params)) == ("debate.skipped_by", {"user": "alice", "seat": AG})
    asked = [(e.seat, e.turn) for e in after.effects if isinstance(e, AskDebater)]
    assert asked == [(CLAUDE, 2)]  # the skipped ask's number is not given out again
    # The skipped reply, already paid for, comes anyway: kept whole, nothing else moves.
    late = step(after.debate, answer(AG, 1))
    assert late.turn is not None and late.turn.number == 1 and not late.debate.floor.late
    assert [type(e) for e in late.effects] == [PostTurn, AppendRoundLog]
    assert (late.debate.floor.asked, late.debate.floor.speaker) == (
        after.debate.floor.asked,
        CLAUDE,
    )
    assert step(late.debate, answer(AG, 1)).debate == late.debate  # once
    # a second press of the same button names AG's turn 1: Claude's turn 2 is not skipped
    assert admits(after.debate, SkipRequested(ALICE, AG, 1)) is NOT_NOW


@pytest.mark.parametrize(
    "event",
    [
        ProposalApproved(ALICE, options=(("a", "b"),)),
        BudgetDecided(ALICE, "consensus", 3),
        SkipRequested(APPROVER),
        SkipRequested(ALICE, AG, 7),
        UserAnswered(ALICE, "예", question=2),
        PeopleSaid(BOB, "참고로"),
        OptionChosen(ALICE, "ledger.stance", "hostile"),
    ],
)
def test_events_are_stored_and_read_back_as_they_were(event: Event) -> None:
    assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(event)) == event


@pytest.mark.parametrize(
    ("state", "event", "key"),
    [
        (ASKED_SECOND, UserAnswered(ALICE, "LRU", 2), "question:2"),
        (ASKED_SECOND, UserAnswered(ALICE, "typed"), "question:2"),  # typed: the open one
        (speaking(phase=Phase.AWAITING_USER, paused="budget"), UserAnswered(ALICE, "x"), None),
        (
            speaking(phase=Phase.AWAITING_USER, paused="budget", pauses=3),
            BudgetDecided(ALICE, "extend"),
            "pause:3",
        ),
        (
            speaking(phase=Phase.AWAITING_USER, paused="budget", pauses=4),
            BudgetDecided(ALICE, "conclude"),
            "pause:4",
        ),  # the next pause: its own key
        (
            speaking(phase=Phase.AWAITING_USER, paused="converging", pauses=5),
            BudgetDecided(ALICE, "consensus"),
            "pause:5",
        ),
        (
            speaking(phase=Phase.AWAITING_USER, paused="limit", pauses=6),
            BudgetDecided(ALICE, "resume"),
            "pause:6",
        ),  # a limit's pause can come back at the same turn: its number tells them apart
        (debate(), ProposalDeclined(ALICE), "card"),
        (speaking(), StopRequested(ALICE), None),
    ],
)
def test_what_an_event_answers_that_only_one_person_may(
    state: Debate, event: Event, key: str | None
) -> None:
    """The gateway's inbox keeps one answer per key: a typed line at a pause is words, and
    every pause (budget, converging, a limit) is keyed by its own number."""
    assert answers(state, event) == key
