"""The free format's briefs and the moderator's input: what each one sees, hole by hole."""

from __future__ import annotations

import asyncio
from pathlib import Path

from handlers.core.events import PeopleSaid, UserAnswered
from handlers.core.model import (
    AG,
    CLAUDE,
    GEMINI,
    Action,
    Backend,
    Decision,
    Participant,
    PeopleLine,
    Phase,
    Turn,
    UserQuestion,
)
from handlers.ports import TurnRequest
from tests.handlers.conftest import ALICE, CAROL, Rig
from tests.handlers.doubles import other, reply
from tests.handlers.test_handler_flow import idle, opened


async def _turns(rig: Rig, debate_id: int) -> list[Turn]:
    return list(await rig.h._turns.last_turns(debate_id, 100))


def _requests(rig: Rig) -> dict[int, TurnRequest]:
    return {r.turn: r for d in rig.debaters.values() for r in d.requests}


async def test_every_participant_s_first_brief_carries_the_agenda(rig: Rig) -> None:
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    turns = await _turns(rig, debate_id)
    requests = _requests(rig)
    topic = (await rig.h.get(debate_id)).proposal.topic
    first, second = turns[0], turns[1]
    assert second.seat == other(first.seat)
    for turn in (first, second):  # the round-1 second speaker too, with the reply verbatim
        assert topic in requests[turn.number].prompt
    assert requests[2].prompt.count(first.text) == 1
    assert topic not in requests[4].prompt  # once is enough


async def test_the_people_s_answer_reaches_the_next_judgement_and_every_debater(
    rig: Rig,
) -> None:
    question = UserQuestion("운영팀이 Redis를 운영할 수 있나요?", ("예", "아니요"))
    rig.moderator.enqueue(Decision(Action.ASK_USER, user_question=question))
    debate_id = await opened(rig)
    await asyncio.wait_for(rig.room.signal("asked").wait(), 10)
    await idle(rig, debate_id)
    await rig.h.submit(debate_id, UserAnswered(CAROL, "아니요, 운영 인력이 없습니다"))
    await idle(rig, debate_id)

    said = PeopleLine("carol", "아니요, 운영 인력이 없습니다", question.text)
    assert rig.moderator.views[1].people == (said,)  # the judgement after the answer
    assert all(view.people == () for view in rig.moderator.views[2:])  # and only that one
    requests = _requests(rig)
    turns = await _turns(rig, debate_id)
    got = [t for t in turns if said.text in requests[t.number].prompt]
    assert {t.seat for t in got} == {AG, CLAUDE} and len(got) == 2  # each once, next turn
    assert "carol" in requests[got[0].number].prompt
    assert ("answer", "carol") in [tuple(w[2].split("|")[:2]) for w in rig.wiki.writes]


async def test_a_redirect_is_obeyed_at_once_and_shown(rig: Rig) -> None:
    debate_id = await opened(rig)
    await idle(rig, debate_id)  # a first debate only to learn who the seed draws first
    first = (await _turns(rig, debate_id))[0].seat
    await rig.stop()
    again = Rig(rig.path.with_name("redirect.sqlite3"), seed=rig.seed)
    again.moderator.enqueue(Decision(Action.REDIRECT, next_seat=first, note="비용부터 다시"))
    await again.start()
    try:
        debate_id = await opened(again)
        await idle(again, debate_id)
        turns = await _turns(again, debate_id)
        assert [t.seat for t in turns[:3]] == [first, first, other(first)]  # mid-round
        assert [t.round for t in turns[:3]] == [1, 1, 1]
        notices = [(k, p) for _, k, p in again.room.notices if k == "moderator.redirect"]
        name = "AG" if first == AG else "Claude"
        assert notices == [("moderator.redirect", {"seat": name, "note": "비용부터 다시"})]
        assert "비용부터 다시" in again.debaters[first].requests[1].prompt
        logged = [w for w in again.wiki.writes if w[2].startswith("redirect|")]
        assert [w[2] for w in logged] == [f"redirect|{name}|비용부터 다시"]
    finally:
        await again.stop()


async def test_the_moderator_s_note_is_shown_and_logged(rig: Rig) -> None:
    rig.moderator.enqueue(Decision(Action.CONTINUE, note="근거를 숫자로 보강하세요"))
    debate_id = await opened(rig)
    await idle(rig, debate_id)
    notes = [p for _, k, p in rig.room.notices if k == "moderator.note"]
    assert notes == [{"note": "근거를 숫자로 보강하세요"}]
    assert any(w[2] == "note||근거를 숫자로 보강하세요" for w in rig.wiki.writes)
    assert "근거를 숫자로 보강하세요" in _requests(rig)[2].prompt


async def test_a_debater_s_question_to_the_people_is_put_to_them(rig: Rig) -> None:
    asks = reply("Redis가 낫습니다", question={"to": "user", "text": "예산 상한이 있나요?"})
    for double in rig.debaters.values():
        double.enqueue(asks)
    debate_id = await opened(rig)
    await asyncio.wait_for(rig.room.signal("asked").wait(), 10)
    await idle(rig, debate_id)
    # The moderator (the double) said `continue`: the engine put the question itself.
    assert rig.room.questions == [UserQuestion("예산 상한이 있나요?")]
    assert (await rig.h.get(debate_id)).phase is Phase.AWAITING_USER


async def test_words_typed_in_the_room_reach_the_moderator_and_the_next_debater(
    rig: Rig,
) -> None:
    working = asyncio.Event()
    release = asyncio.Event()

    async def slow() -> None:
        working.set()
        await release.wait()

    for double in rig.debaters.values():
        double.enqueue(slow)
    debate_id = await opened(rig)
    await asyncio.wait_for(working.wait(), 10)
    await rig.h.submit(debate_id, PeopleSaid(ALICE, "참고로 **트래픽은 초당 2만** 건입니다"))
    release.set()
    await idle(rig, debate_id)

    line = PeopleLine("alice", "참고로 **트래픽은 초당 2만** 건입니다")
    assert rig.moderator.views[0].people == (line,)
    requests = _requests(rig)
    assert line.text in requests[2].prompt and "alice" in requests[2].prompt
    assert line.text not in requests[1].prompt  # it was asked before
    assert sum(line.text in r.prompt for r in requests.values()) == 2


async def test_three_participants_debate_freely_to_the_end(tmp_path: Path) -> None:
    trio = (
        Participant(AG, Backend.AG_RELAY, "AG"),
        Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
        Participant(GEMINI, Backend.GEMINI_CLI, "Gemini", persona="a cost reviewer"),
    )
    rig = Rig(tmp_path / "trio.sqlite3", roster=trio, max_rounds=2)
    await rig.start()
    try:
        debate_id = await opened(rig)
        await idle(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED and debate.ids == (AG, CLAUDE, GEMINI)
        turns = await _turns(rig, debate_id)
        assert [t.number for t in turns] == [1, 2, 3, 4, 5, 6]
        for rnd in (1, 2):
            assert sorted(t.seat for t in turns if t.round == rnd) == sorted((AG, CLAUDE, GEMINI))
        requests = _requests(rig)
        for turn in turns:
            prompt = requests[turn.number].prompt
            before = [t for t in turns if t.number < turn.number]
            last_own = max((t.number for t in before if t.seat == turn.seat), default=0)
            for earlier in before:
                seen = earlier.number > last_own and earlier.seat != turn.seat
                assert (prompt.count(earlier.text) == 1) is seen, (turn.number, earlier.number)
            assert (debate.proposal.topic in prompt) is (last_own == 0)
            assert ("a cost reviewer" in prompt) is (turn.seat == GEMINI)
        assert {r.participant for r in requests.values()} == {AG, CLAUDE, GEMINI}
    finally:
        await rig.stop()


async def test_a_participant_without_a_configured_backend_is_left_out(tmp_path: Path) -> None:
    trio = (
        Participant(AG, Backend.AG_RELAY, "AG"),
        Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
        Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"),
    )
    rig = Rig(tmp_path / "two.sqlite3", roster=trio, missing=(Backend.GEMINI_CLI,))
    await rig.start()
    try:
        debate_id = await opened(rig)
        await idle(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.ids == (AG, CLAUDE) and debate.phase is Phase.CONCLUDED
        assert rig.debaters[GEMINI].requests == []
    finally:
        await rig.stop()
