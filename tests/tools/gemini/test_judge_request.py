"""What one judgement sends, as the fake Gemini receives it: everything the moderator needs to
decide (who speaks next, consensus, claims, a question for the people), and not more: the
newest turn, the claim board's changes and its own summary, with a schema of types only."""

from __future__ import annotations

import json
from dataclasses import replace

from handlers.core.model import AG, CLAUDE, Action, Floor, ModeratorView, PeopleLine, Stance
from handlers.core.moderation.bounds import SUMMARY_MAX_CHARS
from handlers.core.moderation.claims import CLAIM_CHARS, MAX_CLAIMS, Claim, ClaimStatus
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.builders import judging_debate, reply_text, turn
from tests.tools.gemini.conftest import MakeModerator

EARLIER = "Redis가 맞습니다. 멀티 인스턴스에서 세션 일관성이 필요합니다."
NEWEST = "관리형 Redis라면 운영 부담을 받아들이겠습니다. 다만 월 비용 한도가 먼저 정해져야 합니다."
ASKED = "관리형 Redis에 월 40만 원을 쓸 수 있나요?"
SUMMARY = "AG: Redis, 세션 공유가 근거. Claude: LRU, 운영 부담이 근거. 사람들: 트래픽 세 배 예상."
ANSWER = PeopleLine("alice", "다음 분기 트래픽은 세 배가 됩니다", "트래픽 예측이 있나요?")
SAID = PeopleLine("carol", "운영팀은 두 명뿐이에요")


def _view(claims: tuple[Claim, ...], summary: str = SUMMARY) -> ModeratorView:
    """Judging turn 4 (Claude, who asks the people), the last of round 2."""
    debate = judging_debate()
    debate = replace(
        debate,
        floor=Floor(
            round=2,
            order=(AG, CLAUDE),
            spoken=(AG, CLAUDE),
            turns=4,
            log=((1, AG), (2, CLAUDE), (3, AG), (4, CLAUDE)),
            stances=((AG, Stance.DISAGREE), (CLAUDE, Stance.PARTIAL)),
            unquoted=((4, CLAUDE),),
        ),
        moderation=replace(debate.moderation, summary=summary, claims=claims),
    )
    question = {"to": "user", "text": ASKED}
    turns = (
        turn(3, AG, reply_text(EARLIER, "disagree"), round_=2),
        turn(4, CLAUDE, reply_text(NEWEST, "partial", question), round_=2),
    )
    return ModeratorView(debate=debate, last_turns=turns, people=(ANSWER, SAID))


def _board() -> tuple[Claim, ...]:
    """C1 agreed long ago, C2 open, C3 contested at the last judgement (of turn 3)."""
    return (
        Claim("C1", "지금은 단일 인스턴스다", (AG, CLAUDE), ClaimStatus.AGREED, turn=1),
        Claim("C2", "LRU면 운영 부담이 없다", (CLAUDE,), ClaimStatus.OPEN, turn=2),
        Claim("C3", "세션은 인스턴스 간에 공유되어야 한다", (AG,), ClaimStatus.CONTESTED, turn=3),
    )


async def test_a_judgement_request_carries_what_the_moderator_decides_from(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    view = _view(_board())
    decision = await make_moderator().judge(view)

    [request] = fake.generate_requests
    body = request["json"]
    system = body["systemInstruction"]["parts"][0]["text"]
    [content] = body["contents"]
    sent = content["parts"][0]["text"]
    # the agenda
    assert view.debate.proposal.topic in sent and view.debate.proposal.question in sent
    # who may speak next: the seats with their ids, whose turn it is, the stances
    assert "Participants: AG [ag], Claude [claude]" in sent and "next in order: new round" in sent
    assert "AG [ag] disagree, Claude [claude] partial" in sent
    # the newest turn whole, with the question it puts to the people
    assert NEWEST in sent and ASKED in sent and "Turn 4" in sent
    # what the people said since the last judgement, word for word
    assert f'The people\'s answer (alice, to "{ANSWER.question}"): {ANSWER.text}' in sent
    assert f"The people said (carol): {SAID.text}" in sent
    # the claims: the last judgement's change whole, the open one, the settled one by id
    assert "C3 [ag] contested: 세션은 인스턴스 간에 공유되어야 한다" in sent
    assert "C2 [claude] open: LRU면 운영 부담이 없다" in sent and "agreed C1" in sent
    # a concession without a quote, and the summary that remembers the turns before
    assert "Turn 4: Claude [claude] moved toward the others" in sent
    assert SUMMARY in sent
    # what it must answer: the actions, the claim statuses, the summary's cap, the language
    schema = body["generationConfig"]["responseSchema"]
    assert schema["properties"]["action"]["enum"] == [a.value for a in Action]
    claim_status = schema["properties"]["claims"]["items"]["properties"]["status"]
    assert claim_status["enum"] == [s.value for s in ClaimStatus]
    assert {"next_speaker", "note", "user_question", "user_options", "consensus", "summary"} <= (
        set(schema["required"])
    )
    assert all(f"`{field}`" in system for field in schema["properties"])  # each one explained
    assert f"at most {SUMMARY_MAX_CHARS} characters" in system and "Korean" in system
    assert "asks the people a question" in system and "`ask_user`" in system
    assert decision.summary  # the fake's answer was read


async def test_a_judgement_reads_no_more_than_is_new(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    """The turn before (its summary keeps it), the full board and the schema's descriptions
    stay out: a full board of long claims costs a judgement about what a small one does."""
    small = _view(_board())
    long_text = "세션 일관성과 운영 부담 사이의 비용을 따진 긴 주장 " * 20
    full = tuple(
        Claim(f"C{n}", long_text[:CLAIM_CHARS], (AG,), ClaimStatus.OPEN, turn=n % 3)
        for n in range(1, MAX_CLAIMS + 1)
    )
    moderator = make_moderator()
    await moderator.judge(small)
    await moderator.judge(_view(full, summary="요약 한 줄\n" * 1000))

    first, second = fake.generate_requests
    for request in (first, second):
        sent = request["text"]
        assert EARLIER not in sent and "Turn 3 ·" not in sent  # the turn before stays out
        schema = json.dumps(request["json"]["generationConfig"]["responseSchema"])
        assert '"description"' not in schema and '"title"' not in schema  # the prompt says it
    # the whole board would be 40 x 300 characters; the summary is held to its cap
    assert second["input_chars"] - first["input_chars"] < 3 * CLAIM_CHARS + 6 * 100 + (
        SUMMARY_MAX_CHARS
    )
    assert second["input_chars"] < 6_000
