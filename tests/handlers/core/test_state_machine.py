"""Table-driven tests of the pure transition function."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from handlers.core.effects import (
    AskDebater,
    AskUser,
    CancelTimer,
    CloseCard,
    Conclude,
    Judge,
    Notify,
    OpenRoom,
    PostConclusion,
    PostTurn,
    WriteConclusion,
)
from handlers.core.events import (
    ConclusionReady,
    DebaterFailed,
    Event,
    Judged,
    ProposalApproved,
    ProposalDeclined,
    ProposalExpired,
    ReplyReceived,
    StopRequested,
    UserAnswered,
)
from handlers.core.model import (
    AG,
    CLAUDE,
    Action,
    Conclusion,
    Debate,
    Decision,
    FailureKind,
    ModeratorSource,
    OpenAsk,
    Outcome,
    PeopleLine,
    Phase,
    Setup,
    TurnMeta,
    UserQuestion,
)
from handlers.core.state_machine import transition
from handlers.core.turns.steps import Step
from tests.doubles import changed
from tests.handlers.conftest import ALICE, APPROVER, BOB, proposal
from tests.handlers.doubles import other, reply

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
CL = CLAUDE


def debate(**changes: object) -> Debate:
    base = Debate(id=1, proposal=proposal(), phase=Phase.PROPOSED, created_at=NOW, setup=Setup(3))
    return changed(base, **changes)


def speaking(
    seat: str = AG, turns: int = 0, rnd: int = 1, spoken: tuple[str, ...] = (), **changes: object
) -> Debate:
    order = (seat, other(seat)) if not spoken else (spoken[0], other(spoken[0]))
    fields: dict[str, object] = {
        "phase": Phase.SPEAKING,
        "round": rnd,
        "order": order,
        "spoken": spoken,
        "speaker": seat,
        "turns": turns,
    }
    state = debate(**(fields | changes))
    if state.phase is not Phase.SPEAKING or state.floor.speaker is None:
        return state
    # Waiting for the speaker's answer, as the engine asks it.
    ask = OpenAsk(state.floor.speaker, state.floor.turns + 1, state.floor.attempt)
    return replace(state, floor=replace(state.floor, asked=(ask,)))


def answer(seat: str, turn: int, text: str | None = None) -> ReplyReceived:
    body = text if text is not None else reply(f"{seat} {turn}")
    return ReplyReceived(seat, turn, body, body, TurnMeta(cost_usd=0.5))


def step(state: Debate, event: Event, seed: int = 0) -> Step:
    return transition(state, event, NOW, random.Random(seed))


def kinds(effects: tuple[object, ...]) -> list[type]:
    return [type(e) for e in effects]


@pytest.mark.parametrize(
    ("state", "event", "phase"),
    [
        (debate(), ProposalApproved(ALICE), Phase.SPEAKING),
        (debate(), ProposalApproved(APPROVER), Phase.SPEAKING),
        (debate(), ProposalApproved(BOB), Phase.PROPOSED),
        (debate(), ProposalDeclined(ALICE), Phase.DECLINED),
        (debate(), ProposalDeclined(BOB), Phase.PROPOSED),
        (debate(), ProposalExpired(), Phase.EXPIRED),
        (debate(phase=Phase.EXPIRED), ProposalApproved(ALICE), Phase.EXPIRED),
        (debate(phase=Phase.DECLINED), ProposalExpired(), Phase.DECLINED),
        (debate(), StopRequested(ALICE), Phase.PROPOSED),
        (speaking(), StopRequested(ALICE), Phase.CONCLUDING),
        (speaking(), StopRequested(BOB), Phase.SPEAKING),
        (speaking(phase=Phase.JUDGING), StopRequested(ALICE), Phase.CONCLUDING),
        (speaking(phase=Phase.AWAITING_USER), StopRequested(APPROVER), Phase.CONCLUDING),
        (
            speaking(phase=Phase.CONCLUDING, outcome=Outcome.STOPPED),
            StopRequested(ALICE),
            Phase.CONCLUDING,
        ),
        (speaking(phase=Phase.CONCLUDED), StopRequested(ALICE), Phase.CONCLUDED),
        (speaking(), answer(AG, 1), Phase.JUDGING),
        (speaking(), answer(CL, 1), Phase.SPEAKING),  # not this seat's turn: ignored
        (speaking(), answer(AG, 2), Phase.SPEAKING),  # a stale or future turn: ignored
        (speaking(phase=Phase.CONCLUDING), answer(AG, 1), Phase.CONCLUDING),
        (speaking(phase=Phase.AWAITING_USER), UserAnswered(BOB, "x"), Phase.AWAITING_USER),
        (speaking(phase=Phase.AWAITING_USER), UserAnswered(ALICE, "x"), Phase.SPEAKING),
        (speaking(phase=Phase.SPEAKING), UserAnswered(ALICE, "x"), Phase.SPEAKING),
        (
            speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,)),
            Judged(1, Decision(Action.CONTINUE)),
            Phase.SPEAKING,
        ),
        (
            speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,)),
            Judged(0, Decision(Action.CONTINUE)),
            Phase.JUDGING,
        ),  # judgement of an older turn
        (
            speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,)),
            Judged(1, Decision(Action.CONCLUDE)),
            Phase.SPEAKING,
        ),  # a conclusion before the other side spoke once: the debate goes on
        (
            speaking(phase=Phase.JUDGING, turns=2, spoken=(AG, CL), log=((1, AG), (2, CL))),
            Judged(2, Decision(Action.CONCLUDE)),
            Phase.CONCLUDING,
        ),
        (
            speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,)),
            Judged(1, Decision(Action.ASK_USER, user_question=UserQuestion("q?"))),
            Phase.AWAITING_USER,
        ),
        (
            speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,)),
            Judged(1, Decision(Action.REDIRECT, note="back to topic")),
            Phase.SPEAKING,
        ),
        (
            speaking(phase=Phase.CONCLUDING, outcome=Outcome.CONSENSUS),
            ConclusionReady(Conclusion("d")),
            Phase.CONCLUDED,
        ),
        (
            speaking(phase=Phase.CONCLUDING, outcome=Outcome.MAX_ROUNDS),
            ConclusionReady(Conclusion("d")),
            Phase.CONCLUDED,
        ),
        (
            speaking(phase=Phase.CONCLUDING, outcome=Outcome.STOPPED),
            ConclusionReady(Conclusion("d")),
            Phase.STOPPED,
        ),
        (
            speaking(phase=Phase.CONCLUDING, outcome=Outcome.FAILED),
            ConclusionReady(Conclusion("d")),
            Phase.FAILED,
        ),
        (speaking(), DebaterFailed(AG, 1, FailureKind.AUTH), Phase.CONCLUDING),
        (speaking(), DebaterFailed(AG, 1, FailureKind.USAGE), Phase.CONCLUDING),
        (speaking(), DebaterFailed(AG, 1, FailureKind.RATE_LIMITED), Phase.SPEAKING),
        (speaking(), DebaterFailed(CL, 1, FailureKind.RATE_LIMITED), Phase.SPEAKING),
    ],
)
def test_transitions(state: Debate, event: Event, phase: Phase) -> None:
    assert step(state, event).debate.phase is phase


def test_an_event_that_does_not_fit_changes_nothing_and_does_nothing() -> None:
    state = speaking()
    result = step(state, answer(CL, 1))
    assert result.debate == state and result.effects == () and result.turn is None


@pytest.mark.parametrize("seed", range(12))
def test_approval_draws_the_first_speaker_from_the_injected_source(seed: int) -> None:
    result = step(debate(), ProposalApproved(ALICE), seed)
    expected = random.Random(seed).choice((AG, CL))
    assert result.debate.floor.order == (expected, other(expected))
    assert result.debate.floor.speaker is expected
    assert kinds(result.effects)[:2] == [CloseCard, OpenRoom]
    ask = result.effects[-1]
    assert isinstance(ask, AskDebater) and ask.seat is expected and ask.turn == 1
    assert ask.shows == ()  # nothing said yet


def test_both_draws_happen() -> None:
    firsts = {step(debate(), ProposalApproved(ALICE), s).debate.floor.speaker for s in range(20)}
    assert firsts == {AG, CL}


def test_a_reply_is_stored_posted_logged_and_judged() -> None:
    result = step(speaking(), answer(AG, 1))
    assert result.turn is not None and result.turn.number == 1 and result.turn.round == 1
    assert kinds(result.effects) == [
        PostTurn,
        type(result.effects[1]),
        type(result.effects[2]),
        Judge,
    ]
    assert result.debate.floor.log == ((1, AG),) and result.debate.spend.cost_usd == 0.5


def test_second_speaker_in_a_round_follows_the_first() -> None:
    state = speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,), log=((1, AG),))
    result = step(state, Judged(1, Decision(Action.CONTINUE, note="n")))
    ask = result.effects[-1]
    assert isinstance(ask, AskDebater) and ask.seat == CL and ask.shows == (1,)
    assert ask.note == "n"


def test_a_new_round_draws_a_new_order() -> None:
    state = speaking(phase=Phase.JUDGING, turns=2, spoken=(AG, CL), log=((1, AG), (2, CL)))
    seen = set()
    for seed in range(20):
        result = step(state, Judged(2, Decision(Action.CONTINUE)), seed)
        assert result.debate.floor.round == 2 and result.debate.floor.spoken == ()
        seen.add(result.debate.floor.speaker)
    assert seen == {AG, CL}


def test_a_question_to_the_opponent_makes_the_asked_answer_first_next_round() -> None:
    asking = reply("q", question={"to": "opponent", "text": "Why Redis?"})
    state = speaking(seat=CL, turns=1, spoken=(AG,))
    state = replace(state, floor=replace(state.floor, order=(AG, CL)))
    after_reply = step(state, answer(CL, 2, asking)).debate
    assert after_reply.people.first_next_round == AG
    for seed in range(10):
        nxt = step(after_reply, Judged(2, Decision(Action.CONTINUE)), seed).debate
        assert (
            nxt.floor.round == 2 and nxt.floor.speaker == AG and nxt.people.first_next_round is None
        )


def test_redirect_at_a_round_boundary_names_who_speaks() -> None:
    state = speaking(phase=Phase.JUDGING, turns=2, spoken=(AG, CL))
    for seed in range(10):
        result = step(state, Judged(2, Decision(Action.REDIRECT, next_seat=CL, note="d")), seed)
        assert result.debate.floor.speaker == CL


def test_the_last_turn_of_the_last_round_concludes_without_a_judgement() -> None:
    state = speaking(seat=CL, turns=5, rnd=3, spoken=(AG,))
    state = replace(state, floor=replace(state.floor, order=(AG, CL)))
    result = step(state, answer(CL, 6))
    assert result.debate.phase is Phase.CONCLUDING
    assert result.debate.ending.outcome is Outcome.MAX_ROUNDS
    assert Judge not in kinds(result.effects) and Conclude in kinds(result.effects)


def test_ask_user_posts_the_question_and_the_answer_goes_into_the_next_relay() -> None:
    question = UserQuestion("Redis 운영 가능?", ("예", "아니요"))
    state = speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,), log=((1, AG),))
    waiting = step(state, Judged(1, Decision(Action.ASK_USER, user_question=question)))
    assert AskUser(question) in waiting.effects
    resumed = step(waiting.debate, UserAnswered(ALICE, "아니요"))
    ask = resumed.effects[-1]
    assert isinstance(ask, AskDebater) and ask.seat == CL
    # The answer is kept, attributed, for every debater's next brief and the next judgement
    # (the brief is composed when the ask runs: see tests/engine/test_what_each_sees.py).
    line = PeopleLine(who="alice", text="아니요", question="Redis 운영 가능?")
    assert resumed.debate.people.lines == (line,) and resumed.debate.heard_by(CL) == 0
    assert isinstance(resumed.effects[0], Notify) and resumed.effects[0].key == "user.answered"


@pytest.mark.parametrize(
    ("kind", "attempt", "retried"),
    [
        (FailureKind.RATE_LIMITED, 0, True),
        (FailureKind.RATE_LIMITED, 1, True),
        (FailureKind.RATE_LIMITED, 2, False),
        (FailureKind.SERVER, 0, True),
        (FailureKind.UNREACHABLE, 0, True),
        (FailureKind.TIMEOUT, 0, True),
        (FailureKind.TIMEOUT, 1, False),
    ],
)
def test_transient_failures_retry_then_skip(kind: FailureKind, attempt: int, retried: bool) -> None:
    state = speaking(attempt=attempt)
    result = step(state, DebaterFailed(AG, 1, kind, retry_after=7))
    keys = [e.key for e in result.effects if isinstance(e, Notify)]
    if retried:
        assert keys == ["debater.retrying"] and result.debate.floor.attempt == attempt + 1
        ask = result.effects[-1]
        assert isinstance(ask, AskDebater) and ask.seat == AG and ask.delay_s == 7
    else:
        assert keys[0] == "debater.skipped" and result.debate.floor.speaker == CL


def test_two_skips_in_a_row_fail_the_debate() -> None:
    state = speaking(skipped=1, attempt=1)
    result = step(state, DebaterFailed(AG, 1, FailureKind.TIMEOUT))
    assert (
        result.debate.phase is Phase.CONCLUDING and result.debate.ending.outcome is Outcome.FAILED
    )


def test_a_missing_session_is_restarted_once_then_fails() -> None:
    first = step(speaking(), DebaterFailed(CL, 1, FailureKind.SESSION_MISSING))
    assert first.debate.phase is Phase.SPEAKING  # not CL's turn: ignored
    first = step(speaking(seat=CL), DebaterFailed(CL, 1, FailureKind.SESSION_MISSING))
    ask = first.effects[-1]
    assert isinstance(ask, AskDebater) and ask.fresh_session
    again = step(first.debate, DebaterFailed(CL, 1, FailureKind.SESSION_MISSING))
    assert again.debate.ending.outcome is Outcome.FAILED


def test_the_end_writes_and_posts_the_conclusion() -> None:
    state = speaking(phase=Phase.CONCLUDING, outcome=Outcome.CONSENSUS)
    result = step(state, ConclusionReady(Conclusion("LRU first")))
    assert kinds(result.effects)[:3] == [CancelTimer, WriteConclusion, PostConclusion]
    assert result.debate.ending.ended_at == NOW


def test_wiki_action_replace_and_append_build_the_working_document() -> None:
    first = reply(
        "a", wiki_action={"page": "Working-Document", "mode": "replace", "content": "# Doc"}
    )
    state = step(speaking(), answer(AG, 1, first)).debate
    assert state.moderation.working_document == "# Doc"
    second = reply(
        "b", wiki_action={"page": "working-document", "mode": "append", "content": "## More"}
    )
    state = replace(
        state, phase=Phase.SPEAKING, floor=replace(state.floor, speaker=CL, asked=(OpenAsk(CL, 2),))
    )
    assert (
        step(state, answer(CL, 2, second)).debate.moderation.working_document == "# Doc\n\n## More"
    )


@pytest.mark.parametrize(
    ("action", "key"),
    [
        ({"page": "Agenda", "mode": "replace", "content": "x"}, "wiki.refused_page"),
        ({"page": "Conclusion", "mode": "append", "content": "x"}, "wiki.refused_page"),
        ({"page": "Working-Document", "mode": "delete", "content": "x"}, "wiki.refused_mode"),
        ({"page": "Working-Document", "mode": "replace", "content": " "}, "wiki.refused_empty"),
        (
            {"page": "Working-Document", "mode": "replace", "content": "x" * 30_001},
            "wiki.refused_too_large",
        ),
    ],
)
def test_refused_wiki_actions_say_why(action: dict[str, str], key: str) -> None:
    result = step(speaking(), answer(AG, 1, reply("x", wiki_action=action)))
    assert key in [e.key for e in result.effects if isinstance(e, Notify)]
    assert result.debate.moderation.working_document == ""


def test_a_one_step_fallback_is_said_once_and_keeps_the_mode() -> None:
    state = speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,))
    once = Decision(Action.CONTINUE, source=ModeratorSource.RULES, lasting=False)
    result = step(state, Judged(1, once))
    assert [e.key for e in result.effects if isinstance(e, Notify)] == ["moderator.rules_once"]
    assert result.debate.moderation.source is ModeratorSource.GEMINI


def test_a_spent_quota_switches_the_mode_and_its_return_switches_it_back() -> None:
    state = speaking(phase=Phase.JUDGING, turns=1, spoken=(AG,))
    lasting = Decision(Action.CONTINUE, source=ModeratorSource.RULES)
    ruled = step(state, Judged(1, lasting))
    assert [e.key for e in ruled.effects if isinstance(e, Notify)] == ["moderator.mode_rules"]
    assert ruled.debate.moderation.source is ModeratorSource.RULES
    again = replace(
        ruled.debate,
        phase=Phase.JUDGING,
        floor=replace(ruled.debate.floor, turns=2, spoken=(AG, CL)),
    )
    back = step(again, Judged(2, Decision(Action.CONTINUE)))
    assert [e.key for e in back.effects if isinstance(e, Notify)] == ["moderator.mode_gemini"]
