"""Whole debates driven through DebateHandler with in-memory doubles and a real SQLite file."""

from __future__ import annotations

import asyncio
import itertools
import random
from datetime import timedelta
from pathlib import Path

import pytest

from handlers.core.admission import authorized
from handlers.core.events import ProposalApproved, ProposalDeclined, StopRequested, UserAnswered
from handlers.core.model import (
    AG,
    CLAUDE,
    Action,
    Decision,
    FailureKind,
    ModeratorSource,
    Outcome,
    Phase,
    UserQuestion,
)
from handlers.ports import DebaterError
from tests.handlers.conftest import ALICE, APPROVER, BOB, CAROL, Rig, proposal
from tests.handlers.doubles import other, reply


async def idle(rig: Rig, debate_id: int) -> None:
    await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)


async def opened(rig: Rig) -> int:
    debate = await rig.h.propose(proposal())
    assert debate is not None
    await idle(rig, debate.id)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    return debate.id


async def test_a_debate_runs_to_max_rounds_with_random_order_and_verbatim_relay(rig: Rig) -> None:
    debate_id = await opened(rig)
    await idle(rig, debate_id)

    debate = await rig.h.get(debate_id)
    assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.MAX_ROUNDS
    turns = await rig.h._turns.last_turns(debate_id, 100)
    assert [t.number for t in turns] == [1, 2, 3, 4, 5, 6]
    # each round both seats speak once, in the order drawn by the seeded source
    draws = random.Random(rig.seed)
    for rnd in range(1, 4):
        seats = [t.seat for t in turns if t.round == rnd]
        first = draws.choice((AG, CLAUDE))
        assert seats == [first, other(first)]
    # the next debater receives the previous reply byte for byte (when it is the other's)
    requests = {r.turn: r for d in rig.debaters.values() for r in d.requests}
    relayed = 0
    for previous, current in itertools.pairwise(turns):
        if current.seat != previous.seat:
            assert requests[current.number].prompt.count(previous.text) == 1
            relayed += 1
        else:
            assert previous.text not in requests[current.number].prompt
    assert relayed >= 3
    assert [n for (_, n), count in rig.room.turn_posts.items() if count == 1] == [1, 2, 3, 4, 5, 6]
    assert len(rig.moderator.views) == 6  # 5 judgements (none after the last turn) + conclude
    assert all(len(v.last_turns) <= 2 for v in rig.moderator.views)
    assert rig.room.conclusions and rig.wiki.keys[f"{debate_id}:conclusion"] == 1
    assert sorted(k for k in rig.wiki.keys if "round-log" in k) == sorted(
        f"{debate_id}:round-log:{n}" for n in range(1, 7)
    )
    assert abs(debate.spend.cost_usd - 0.06) < 1e-9


@pytest.mark.parametrize(
    ("stance", "outcome"), [("agree", Outcome.CONSENSUS), ("partial", Outcome.VERDICT)]
)
async def test_consensus_ends_the_debate_early_only_if_every_seat_agreed(
    rig: Rig, stance: str, outcome: Outcome
) -> None:
    """Degraded: the moderator's CONCLUDE over a seat that only partly agreed is a verdict."""
    rig.moderator.enqueue(
        Decision(action=Action.CONTINUE, summary="s1"),
        Decision(action=Action.CONCLUDE, consensus=0.95, summary="s2"),
    )
    for seat in (AG, CLAUDE):
        rig.debaters[seat].enqueue(reply(f"{seat} agrees", stance if seat == AG else "agree"))
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    debate = await rig.h.get(debate_id)
    assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is outcome
    assert debate.floor.turns == 2 and debate.moderation.summary == "s2"


async def test_stop_mid_turn_cancels_the_debater_and_still_concludes(rig: Rig) -> None:
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def hang() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        finally:
            cancelled.set()

    first_seat = random.Random(rig.seed).choice((AG, CLAUDE))
    rig.debaters[other(first_seat)].enqueue(hang)
    debate_id = await opened(rig)
    # turn 1 answers at once; turn 2 (the other seat) hangs until stopped
    await asyncio.wait_for(started.wait(), 5)
    ignored = (await rig.h.submit(debate_id, StopRequested(BOB))).debate
    assert ignored.phase is Phase.SPEAKING  # bob is not in the conversation
    await rig.h.submit(debate_id, StopRequested(CAROL))
    await asyncio.wait_for(cancelled.wait(), 5)
    await idle(rig, debate_id)
    debate = await rig.h.get(debate_id)
    assert debate.phase is Phase.STOPPED and debate.ending.outcome is Outcome.STOPPED
    assert debate.floor.turns == 1
    assert "debate.stopped_by" in rig.room.notice_keys()
    assert len(rig.room.conclusions) == 1 and rig.wiki.keys[f"{debate_id}:conclusion"] == 1


async def test_ask_user_waits_for_an_authorized_answer_and_relays_it(rig: Rig) -> None:
    question = UserQuestion("운영팀이 Redis 클러스터를 관리할 수 있나요?", ("예", "아니요"))
    rig.moderator.enqueue(Decision(action=Action.ASK_USER, user_question=question))
    debate_id = await opened(rig)
    await asyncio.wait_for(rig.room.signal("asked").wait(), 5)
    await idle(rig, debate_id)
    assert (await rig.h.get(debate_id)).phase is Phase.AWAITING_USER
    assert rig.room.questions == [question]

    assert (
        await rig.h.submit(debate_id, UserAnswered(BOB, "예"))
    ).debate.phase is Phase.AWAITING_USER
    await rig.h.submit(debate_id, UserAnswered(APPROVER, "아니요, 운영 인력이 없습니다"))
    await idle(rig, debate_id)
    second = next(r for d in rig.debaters.values() for r in d.requests if r.turn == 2)
    assert "아니요, 운영 인력이 없습니다" in second.prompt
    assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED


async def test_redirect_note_is_carried_in_the_next_relay(rig: Rig) -> None:
    rig.moderator.enqueue(Decision(action=Action.REDIRECT, note="운영 비용에 집중해 주세요"))
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    second = next(r for d in rig.debaters.values() for r in d.requests if r.turn == 2)
    assert "운영 비용에 집중해 주세요" in second.prompt


async def test_rate_limit_is_retried_after_the_servers_delay(rig: Rig) -> None:
    for debater in rig.debaters.values():
        debater.enqueue(DebaterError(FailureKind.RATE_LIMITED, "429", retry_after=40))
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    assert 40 in rig.clock.slept
    retry = [p for _, k, p in rig.room.notices if k == "debater.retrying"]
    assert retry and retry[0]["seconds"] == "40"
    assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED


async def test_auth_failure_fails_the_debate_with_a_conclusion(rig: Rig) -> None:
    rig.debaters[AG].enqueue(DebaterError(FailureKind.AUTH, "401 invalid x-api-key"))
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    debate = await rig.h.get(debate_id)
    assert debate.phase is Phase.FAILED and debate.ending.outcome is Outcome.FAILED
    assert "debater.failed" in rig.room.notice_keys() and rig.room.conclusions


async def test_credit_claude_not_logged_in_pauses_the_debate_instead(rig: Rig) -> None:
    rig.debaters[CLAUDE].enqueue(DebaterError(FailureKind.AUTH, "Not logged in"))
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    debate = await rig.h.get(debate_id)
    assert debate.phase is Phase.AWAITING_USER and debate.people.paused == "login"
    assert "limits.login" in rig.room.notice_keys() and not rig.room.conclusions


async def test_timeouts_retry_once_then_skip_the_turn(rig: Rig) -> None:
    timeout = DebaterError(FailureKind.TIMEOUT, "silent")
    for debater in rig.debaters.values():
        debater.enqueue(timeout, timeout)
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    keys = rig.room.notice_keys()
    assert keys.count("debater.retrying") >= 1 and "debater.skipped" in keys
    debate = await rig.h.get(debate_id)
    assert debate.phase in (Phase.CONCLUDED, Phase.FAILED)


async def test_missing_session_restarts_with_the_summary_and_working_document(rig: Rig) -> None:
    rig.moderator.enqueue(Decision(action=Action.CONTINUE, summary="지금까지: LRU 우세"))
    first_seat = random.Random(rig.seed).choice((AG, CLAUDE))
    rig.debaters[first_seat].enqueue(
        reply(
            "draft",
            wiki_action={"page": "Working-Document", "mode": "replace", "content": "# 초안"},
        )
    )
    rig.debaters[other(first_seat)].enqueue(DebaterError(FailureKind.SESSION_MISSING, "gone"))
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    retried = [r for r in rig.debaters[other(first_seat)].requests if r.turn == 2]
    assert len(retried) == 2 and retried[1].fresh_session and not retried[0].fresh_session
    assert "지금까지: LRU 우세" in retried[1].prompt and "# 초안" in retried[1].prompt
    assert "debater.session_restarted" in rig.room.notice_keys()


async def test_a_refused_wiki_action_is_reported_and_nothing_written(rig: Rig) -> None:
    first_seat = random.Random(rig.seed).choice((AG, CLAUDE))
    rig.debaters[first_seat].enqueue(
        reply("x", wiki_action={"page": "Agenda", "mode": "replace", "content": "hijack"})
    )
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    refused = [p for _, k, p in rig.room.notices if k == "wiki.refused_page"]
    assert [p["page"] for p in refused] == ["안건"]  # the page's name, in the debate's language
    assert not any("working" in k for k in rig.wiki.keys)


async def test_only_the_conversation_or_approvers_may_open(rig: Rig) -> None:
    debate = await rig.h.propose(proposal())
    assert debate is not None
    assert (await rig.h.submit(debate.id, ProposalApproved(BOB))).debate.phase is Phase.PROPOSED
    assert not authorized(await rig.h.get(debate.id), BOB)
    assert authorized(await rig.h.get(debate.id), APPROVER)
    assert (
        await rig.h.submit(debate.id, ProposalApproved(APPROVER))
    ).debate.phase is Phase.SPEAKING
    await idle(rig, debate.id)


async def test_one_card_at_a_time_per_channel_and_cards_expire(rig: Rig) -> None:
    first = await rig.h.propose(proposal())
    assert first is not None
    assert await rig.h.propose(proposal()) is None
    assert await rig.h.propose(proposal(topic="다른 주제")) is None  # a card still waits here
    assert await rig.h.propose(proposal(channel=2)) is not None
    rig.clock.t += timedelta(minutes=31)
    assert first.id in await rig.h.expire_due()
    await idle(rig, first.id)
    assert (await rig.h.get(first.id)).phase is Phase.EXPIRED
    assert (first.id, "expired") in rig.room.closed_cards
    assert await rig.h.propose(proposal()) is not None  # expired: the channel is free again


async def test_a_topic_under_debate_is_not_proposed_again(rig: Rig) -> None:
    debate_id = await opened(rig)
    assert await rig.h.propose(proposal()) is None
    assert await rig.h.propose(proposal(topic="다른 주제")) is not None
    await idle(rig, debate_id)


async def test_declined_card_is_closed(rig: Rig) -> None:
    debate = await rig.h.propose(proposal())
    assert debate is not None
    assert (await rig.h.submit(debate.id, ProposalDeclined(CAROL))).debate.phase is Phase.DECLINED
    await idle(rig, debate.id)
    assert (debate.id, "declined") in rig.room.closed_cards


async def test_mode_change_to_rules_is_announced_once(rig: Rig) -> None:
    rules = Decision(action=Action.CONTINUE, source=ModeratorSource.RULES)
    rig.moderator.enqueue(rules, rules, rules)
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    assert rig.room.notice_keys().count("moderator.mode_rules") == 1
    assert rig.room.notice_keys().count("moderator.mode_gemini") == 1  # back on Gemini after 3


async def test_the_conclusion_sees_each_seats_latest_turn_even_after_two_in_a_row(
    tmp_path: Path,
) -> None:
    # With a fresh random order each round, a seat can close one round and open the next; if
    # the other's next turn then fails, the last two turns are that seat's, yet the Conclusion
    # quotes both sides.
    found_twice = False
    for seed in range(12):
        rig = Rig(tmp_path / f"seed{seed}.sqlite3", seed=seed)
        rig.debaters[CLAUDE].enqueue(
            reply("Claude의 입장: LRU"), DebaterError(FailureKind.USAGE, "broken")
        )
        await rig.start()
        try:
            debate_id = await opened(rig)
            await idle(rig, debate_id)
            turns = await rig.h._turns.last_turns(debate_id, 100)
            view = rig.moderator.views[-1]  # the one the Conclusion was written from
        finally:
            await rig.stop()
        assert {turn.seat for turn in view.last_turns} == {AG, CLAUDE}, seed
        for seat in (AG, CLAUDE):
            latest = max((t for t in turns if t.seat == seat), key=lambda t: t.number)
            assert latest in view.last_turns
        found_twice |= turns[-1].seat == turns[-2].seat
    assert found_twice  # the case that used to read "(최근 발언 없음)" was exercised
