"""Stalemate ends in the people's decision, in the engine: the minority report's quotes
checked by code (a made-up one is left out), the rules' stance lines when the moderator is
out, the stalemate's two triggers, the poll's answers (cut to 55 with a mark), its stored
timer, and the votes binding (a winner, a tie, no votes) as the debate's outcome."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from handlers.core.events import ProposalApproved, StopRequested
from handlers.core.model import (
    CLAUDE,
    Action,
    Debate,
    Decision,
    ModeratorView,
    Outcome,
    Phase,
    Setup,
    Turn,
    TurnMeta,
)
from handlers.core.poll.minority import answers, fallback, from_output, verbatim
from handlers.core.poll.state import PeoplePoll, PollStage
from handlers.core.reply.parser import parse_reply
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.doubles import reply
from tools.gemini.context import conclusion_prompt

AG_SAYS = "캐시는 프로세스 안에 두는 편이 운영이 훨씬 단순합니다."
CLAUDE_SAYS = "멀티 인스턴스라면 Redis가 무효화를 한 곳에서 처리합니다."


def _turn(number: int, seat: str, opinion: str) -> Turn:
    text = reply(opinion, "disagree")
    parsed = parse_reply(text)
    return Turn(1, number, 1, seat, text, text, "-", parsed, TurnMeta(), datetime.now(UTC))


def _debate() -> Debate:
    return Debate(1, proposal(), Phase.AWAITING_USER, datetime.now(UTC), setup=Setup(3))


TURNS = (_turn(1, "ag", f"# 입장\n{AG_SAYS}\n\n더 자세히."), _turn(2, CLAUDE, CLAUDE_SAYS))


def test_poll_quotes_must_be_the_sides_own_words() -> None:
    assert verbatim(f"“{AG_SAYS}”", TURNS[:1])  # quote marks and spacing aside
    assert not verbatim(AG_SAYS.lower().replace("캐시는", "캐시가"), TURNS[:1])  # changed
    assert not verbatim("운영이", TURNS[:1])  # too short to be a quote
    output = json.dumps(
        {
            "sides": [
                {"participant": "ag", "position": "LRU", "quotes": [AG_SAYS, CLAUDE_SAYS]},
                {
                    "participant": "claude",
                    "position": "Redis",
                    "case": "일관성",
                    "quotes": ["Redis가 언제나 더 빠르고 싸다고 말했다"],
                },
            ]
        },
        ensure_ascii=False,
    )
    report = from_output(_debate(), TURNS, output)
    ag, claude = report.sides
    assert ag.quotes == (AG_SAYS,) and ag.rejected == 1  # the other side's words are not its own
    assert claude.quotes == () and claude.rejected == 1  # made up
    assert not report.by_rules


def test_poll_report_falls_back_to_each_sides_stance_line() -> None:
    report = fallback(_debate(), TURNS)
    assert report.by_rules
    assert [(s.participant, s.position, s.quotes) for s in report.sides] == [
        ("ag", AG_SAYS, (AG_SAYS,)),  # a heading too short to quote is passed over
        (CLAUDE, CLAUDE_SAYS, (CLAUDE_SAYS,)),
    ]
    # the rest of the reply is the side's case, in its own words (before: always empty)
    assert [s.case for s in report.sides] == ["더 자세히.", ""]
    # an answer that is no report at all, or leaves a side out: that side's stance line
    mixed = from_output(_debate(), TURNS, '{"sides": [{"participant": "ag", "position": "LRU"}]}')
    assert mixed.sides[0].position == "LRU" and mixed.sides[1].quotes == (CLAUDE_SAYS,)
    assert from_output(_debate(), TURNS, "not json").sides == fallback(_debate(), TURNS).sides


def test_poll_answers_are_cut_to_discords_limit_with_a_mark() -> None:
    report = from_output(
        _debate(),
        TURNS,
        json.dumps(
            {
                "sides": [
                    {"participant": "ag", "position": "LRU"},
                    {"participant": "claude", "position": "x" * 80},
                ]
            }
        ),
    )
    short, long = answers(_debate(), report)
    assert short == "AG: LRU"
    assert len(long) == 55 and long.endswith("…") and long.startswith("Claude: xxx")


def test_poll_tally_winner_tie_and_no_votes() -> None:
    poll = PeoplePoll(24, PollStage.CLOSED, answers=("a", "b", "c"), counts=(1, 3, 0))
    assert poll.winner == 1 and poll.total == 4
    assert PeoplePoll(24, answers=("a", "b"), counts=(2, 2)).winner is None
    assert PeoplePoll(24, answers=("a", "b"), counts=(2, 2)).leaders == (0, 1)
    assert PeoplePoll(24, answers=("a", "b"), counts=(0, 0)).leaders == ()


def low(value: float = 0.1) -> Decision:
    return Decision(action=Action.CONTINUE, consensus=value, summary=f"at {value}")


async def idle(rig: Rig, debate_id: int) -> None:
    await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)


async def _open(rig: Rig) -> int:
    await rig.start()
    made = await rig.h.propose(proposal())
    assert made is not None
    await idle(rig, made.id)
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await idle(rig, made.id)
    return made.id


async def test_poll_when_the_meter_stays_low_for_two_rounds(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "p.sqlite3", budget_pause=True, poll_hours=24, max_rounds=5)
    for double in rig.debaters.values():
        double.default = reply("저는 여전히 반대합니다, 이유는 앞에서 말한 대로입니다.", "disagree")
    rig.moderator.enqueue(*(low() for _ in range(4)))
    try:
        debate_id = await _open(rig)
        paused = await rig.h.get(debate_id)
        assert (
            paused.people.paused == "poll" and paused.floor.round == 2 and paused.floor.turns == 4
        )
        assert paused.poll is not None and paused.poll.stage is PollStage.OPEN
        assert paused.poll.report is not None and paused.poll.report.by_rules  # none scripted
        assert rig.room.reports == [debate_id] and len(rig.room.polls[debate_id]) == 2
        assert "poll.stalemate" in rig.room.notice_keys()

        handler = await rig.rebuild()  # a restart while the poll is open
        await idle(rig, debate_id)
        assert rig.room.reports == [debate_id]  # nothing posted again
        assert await handler.fire_due_timers() == []
        rig.room.votes_shown[debate_id] = (0, 0)
        rig.clock.advance(24 * 3600)
        assert await handler.fire_due_timers() == [debate_id]
        await idle(rig, debate_id)
        ended = await handler.get(debate_id)
        assert ended.phase is Phase.CONCLUDED and ended.ending.outcome is Outcome.PEOPLE
        assert ended.poll is not None and ended.poll.counts == (0, 0)
        assert "poll.no_votes" in rig.room.notice_keys()
        assert len(rig.room.conclusions) == 1 and rig.room.poll_reads == [debate_id]
        assert await handler.fire_due_timers() == []
    finally:
        await rig.stop()


async def test_poll_not_without_disagreement_nor_in_other_formats(tmp_path: Path) -> None:
    # the sides agree in part: the round limit brings the budget pause, as before
    rig = Rig(tmp_path / "q.sqlite3", budget_pause=True, poll_hours=24, max_rounds=1)
    try:
        debate_id = await _open(rig)
        paused = await rig.h.get(debate_id)
        assert paused.people.paused == "budget" and paused.poll is None
    finally:
        await rig.stop()
    # no POLL_HOURS (the console): the budget pause, even in a stalemate
    rig = Rig(tmp_path / "r.sqlite3", budget_pause=True, max_rounds=1)
    for double in rig.debaters.values():
        double.default = reply("반대합니다. 처음부터 그렇게 말했습니다.", "disagree")
    try:
        debate_id = await _open(rig)
        assert (await rig.h.get(debate_id)).people.paused == "budget"
    finally:
        await rig.stop()


async def test_poll_at_the_round_limit_votes_bind(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "s.sqlite3", budget_pause=True, poll_hours=2, max_rounds=1)
    rig.debaters[CLAUDE].default = reply(CLAUDE_SAYS, "disagree")
    claude = {"participant": "claude", "position": "Redis", "quotes": [CLAUDE_SAYS]}
    output = {"sides": [{"participant": "ag", "position": "LRU"}, claude]}
    rig.moderator.enqueue_task("minority_report", json.dumps(output, ensure_ascii=False))
    try:
        debate_id = await _open(rig)
        paused = await rig.h.get(debate_id)
        assert paused.poll is not None and paused.poll.answers == ("AG: LRU", "Claude: Redis")
        assert [r.task for r in rig.moderator.tasks] == ["minority_report"]
        assert CLAUDE_SAYS in rig.moderator.tasks[0].prompt  # the replies, verbatim
        rig.room.votes_shown[debate_id] = (1, 4)
        await rig.h.submit(debate_id, StopRequested(ALICE))  # Stop during the vote: it closes now
        await idle(rig, debate_id)
        ended = await rig.h.get(debate_id)
        assert ended.ending.outcome is Outcome.PEOPLE and ended.poll is not None
        assert ended.poll.winner == 1 and ended.poll.closed_by == "alice"
        decided = [p for _, k, p in rig.room.notices if k == "poll.decided"]
        assert decided == [{"answer": "Claude: Redis", "votes": "4", "total": "5"}]
    finally:
        await rig.stop()


def test_poll_result_reaches_the_moderators_conclusion_request() -> None:
    poll = PeoplePoll(24, PollStage.CLOSED, answers=("AG: LRU", "Claude: Redis"), counts=(1, 4))
    ended = replace(_debate(), poll=poll, ending=replace(_debate().ending, outcome=Outcome.PEOPLE))
    text = "\n".join(m for _, m in conclusion_prompt(ModeratorView(ended), "ko").messages)
    assert "Outcome: people" in text
    assert "The people's poll chose 'Claude: Redis' (AG: LRU: 1; Claude: Redis: 4)" in text
    tied = replace(ended, poll=replace(poll, counts=(2, 2)))
    text = "\n".join(m for _, m in conclusion_prompt(ModeratorView(tied), "ko").messages)
    assert "decided nothing" in text


async def _drive_poll(rig: Rig) -> tuple[int, bool]:
    """A one-round stalemate, the poll open, its time passed, closed; restart once if the plan
    crashed the engine."""
    restarted = False

    async def settle(debate_id: int) -> None:
        nonlocal restarted
        await idle(rig, debate_id)
        if rig.plan.fired and not restarted:
            restarted = True
            await rig.rebuild()
            await idle(rig, debate_id)

    await rig.start()
    made = await rig.h.propose(proposal())
    assert made is not None
    await settle(made.id)
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await settle(made.id)
    rig.room.votes_shown[made.id] = (1, 2)
    rig.clock.advance(2 * 3600 + 1)
    await rig.h.fire_due_timers()
    await settle(made.id)
    return made.id, restarted


def _poll_rig(path: Path) -> Rig:
    rig = Rig(path, budget_pause=True, poll_hours=2, max_rounds=1)
    rig.debaters[CLAUDE].default = reply(CLAUDE_SAYS, "disagree")
    rig.moderator.enqueue_task("minority_report", '{"sides": []}')
    return rig


async def test_poll_a_crash_at_any_point_closes_it_once(tmp_path: Path) -> None:
    dry = _poll_rig(tmp_path / "dry.sqlite3")
    try:
        await _drive_poll(dry)
    finally:
        await dry.stop()
    assert {"room:report", "room:poll", "room:close_poll"} <= set(dry.plan.log)
    first = dry.plan.log.index("perform:minority_report")
    for at in range(first + 1, dry.plan.calls + 1):  # from the stalemate to the end
        rig = _poll_rig(tmp_path / f"crash-{at}.sqlite3")
        rig.plan.at = at
        try:
            debate_id, restarted = await _drive_poll(rig)
            where = f"crash at call {at} ({rig.plan.log[at - 1]})"
            assert restarted, where
            ended = await rig.h.get(debate_id)
            assert ended.ending.outcome is Outcome.PEOPLE and ended.phase is Phase.CONCLUDED, where
            assert ended.poll is not None and ended.poll.counts == (1, 2), where
            assert rig.room.reports == [debate_id] and list(rig.room.polls) == [debate_id], where
            assert len(rig.moderator.tasks) == 1 and len(rig.room.conclusions) == 1, where
            # a notice may be said again after a crash (the Discord room's nonce drops it)
            assert "poll.decided" in rig.room.notice_keys(), where
        finally:
            await rig.stop()
