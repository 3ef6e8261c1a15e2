"""GeminiModerator with the real google-genai SDK against the loopback fake Gemini."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from handlers.core.effects import AskDebater, AskUser, PostConclusion, WriteConclusion
from handlers.core.events import ConclusionReady, Judged
from handlers.core.model import AG, CLAUDE, Action, ModeratorSource, Phase, Stance
from handlers.core.moderation.bounds import ANSWER_CHARS, MAX_OPTIONS, OPTION_CHARS, QUESTION_CHARS
from handlers.core.state_machine import transition
from tests.fakes.fake_gemini import PER_DAY, FakeGemini
from tests.tools.gemini.builders import T0, chat, reply_text, run_debate, turn, view_after
from tests.tools.gemini.conftest import MODEL, Day, MakeModerator, Sleeps
from tools.store.db import Database

JUDGE_ASK = {
    "action": "ask_user",
    "next_speaker": None,
    "note": "alice님의 운영 부담 우려에 대한 답입니다.",
    "user_question": "운영팀이 Redis 클러스터를 관리할 수 있나요?",
    "user_options": ["예", "아니요", "모르겠음"],
    "consensus": 0.3,
    "summary": "AG: Redis 지지. Claude: LRU 지지. 운영 역량이 쟁점.",
}
JUDGE_CONTINUE = {**JUDGE_ASK, "action": "continue", "user_question": None, "user_options": []}
CONCLUSION = {
    "decision": "in-process LRU로 시작하고 인스턴스가 3개를 넘으면 Redis로 전환한다.",
    "agreed_points": ["지금은 단일 인스턴스다"],
    "open_issues": ["전환 시점의 측정 기준"],
    "positions": [
        {"speaker": "ag", "position": "Redis가 장기적으로 맞다."},
        {"speaker": "claude", "position": "LRU로 충분하다."},
    ],
    "next_steps": ["인스턴스 수 모니터링"],
}


def two_turns() -> tuple:
    return (
        turn(
            1,
            AG,
            reply_text("Redis가 맞습니다. 멀티 인스턴스에서 일관성이 필요합니다.", "disagree"),
        ),
        turn(2, CLAUDE, reply_text("LRU면 충분합니다. 운영 부담이 없습니다.", "partial")),
    )


def generation_config(request: dict) -> dict:
    return request["json"]["generationConfig"]


async def test_judge_sends_system_instruction_and_schema_and_drives_the_engine(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "json", "obj": JUDGE_ASK})
    view = view_after(*two_turns())

    decision = await make_moderator().judge(view)

    [request] = fake.generate_requests
    assert request["path"] == f"/v1beta/models/{MODEL}:generateContent"
    assert request["api_key"] == "test-key"
    system = request["json"]["systemInstruction"]["parts"][0]["text"]
    assert "moderate a design debate" in system and "Korean" in system
    config = generation_config(request)
    schema = config["responseSchema"]
    assert {"action", "next_speaker", "note", "summary", "consensus"} <= set(schema["properties"])
    assert schema["properties"]["action"]["enum"] == [
        "continue",
        "ask_user",
        "redirect",
        "conclude",
    ]
    assert config["responseMimeType"] == "application/json"
    assert "thinkingConfig" in config
    user = request["json"]["contents"][0]["parts"][0]["text"]
    assert "운영 부담이 없습니다" in user and "stance: partial" in user  # the newest turn
    assert "멀티 인스턴스에서 일관성이 필요합니다" not in user  # not the one its summary keeps

    assert decision.source is ModeratorSource.GEMINI
    step = transition(view.debate, Judged(2, decision), T0, random.Random(1))
    assert step.debate.phase is Phase.AWAITING_USER
    assert step.debate.moderation.summary == JUDGE_ASK["summary"]
    asked = [effect for effect in step.effects if isinstance(effect, AskUser)]
    assert asked[0].question.text == JUDGE_ASK["user_question"]
    assert asked[0].question.options == ("예", "아니요", "모르겠음")


async def test_conclude_sends_its_schema_and_the_conclusion_is_published(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "json", "obj": CONCLUSION})
    view = view_after(*two_turns(), phase=Phase.CONCLUDING)

    conclusion = await make_moderator(language="en").conclude(view)

    [request] = fake.generate_requests
    assert "Conclusion page" in request["json"]["systemInstruction"]["parts"][0]["text"]
    assert "English" in request["json"]["systemInstruction"]["parts"][0]["text"]
    props = generation_config(request)["responseSchema"]["properties"]
    assert {"decision", "agreed_points", "open_issues", "positions", "next_steps"} <= set(props)
    assert conclusion.decision == CONCLUSION["decision"]
    assert dict(conclusion.positions)[CLAUDE] == "LRU로 충분하다."
    step = transition(view.debate, ConclusionReady(conclusion), T0, random.Random(1))
    written = [e for e in step.effects if isinstance(e, WriteConclusion | PostConclusion)]
    assert [e.conclusion.decision for e in written] == [CONCLUSION["decision"]] * 2
    assert step.debate.phase is Phase.CONCLUDED


async def test_detect_sends_its_schema_and_returns_the_verdict(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    verdict = {
        "debate_worthy": True,
        "topic": "캐시 계층 선택",
        "question": "어떤 캐시 계층을 쓸 것인가?",
        "reason": "장단점이 갈린다",
        "confidence": 0.85,
    }
    fake.push({"kind": "json", "obj": verdict})
    window = (chat(1, "Redis로 갈지 LRU로 갈지 못 정했네", 0), chat(2, "운영 부담이…", 1))

    detection = await make_moderator().detect(window)

    [request] = fake.generate_requests
    assert "open decision" in request["json"]["systemInstruction"]["parts"][0]["text"]
    props = generation_config(request)["responseSchema"]["properties"]
    assert {"debate_worthy", "topic", "question", "reason", "confidence"} <= set(props)
    assert "u1: Redis로 갈지 LRU로 갈지 못 정했네" in request["text"]
    assert (detection.debate_worthy, detection.topic, detection.confidence) == (
        True,
        "캐시 계층 선택",
        0.85,
    )
    assert detection.source is ModeratorSource.GEMINI


async def test_invalid_json_gets_one_repair_request_then_succeeds(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database
) -> None:
    fake.push(
        {"kind": "invalid_json", "text": '{"action": "keep going"}'},
        {"kind": "json", "obj": JUDGE_CONTINUE},
    )

    decision = await make_moderator().judge(view_after(*two_turns()))

    assert decision.source is ModeratorSource.GEMINI
    assert decision.summary == JUDGE_CONTINUE["summary"]
    _first, repair = fake.generate_requests
    contents = repair["json"]["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user"]
    assert contents[1]["parts"][0]["text"] == '{"action": "keep going"}'
    assert "action" in contents[2]["parts"][0]["text"]  # the validation error is quoted
    assert "could not be used" in contents[2]["parts"][0]["text"]
    rows = await db.fetch_all("SELECT outcome FROM moderator_calls ORDER BY id")
    assert [row[0] for row in rows] == ["invalid", "ok"]


async def test_an_answer_that_breaks_the_rules_of_the_schema_is_repaired_and_drives_the_relay(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    asks_nothing = {**JUDGE_ASK, "user_question": None}  # ask_user without a question
    fake.push({"kind": "json", "obj": asks_nothing}, {"kind": "json", "obj": JUDGE_CONTINUE})
    view = view_after(*two_turns())

    decision = await make_moderator().judge(view)

    repair_text = fake.generate_requests[1]["json"]["contents"][2]["parts"][0]["text"]
    assert "user_question must not be empty" in repair_text
    step = transition(view.debate, Judged(2, decision), T0, random.Random(1))
    [ask] = [effect for effect in step.effects if isinstance(effect, AskDebater)]
    assert ask.note == JUDGE_CONTINUE["note"]  # the note goes out with the relayed reply
    assert ask.shows == (2,)


@pytest.mark.parametrize("second", [{"kind": "truncated"}, {"kind": "text", "text": "not json"}])
async def test_invalid_twice_lets_the_rules_decide_that_step(
    fake: FakeGemini, make_moderator: MakeModerator, second: dict
) -> None:
    fake.push({"kind": "invalid_json"}, second)
    agreeing = (
        turn(1, AG, reply_text("LRU로 합시다.", "agree")),
        turn(2, CLAUDE, reply_text("동의합니다.", "agree")),
    )
    view = view_after(*agreeing, stances=((AG, Stance.AGREE), (CLAUDE, Stance.AGREE)))

    decision = await make_moderator().judge(view)

    assert len(fake.generate_requests) == 2  # the first and one repair, no third
    assert decision.source is ModeratorSource.RULES
    assert decision.action is Action.CONCLUDE  # both agree: the rules conclude
    assert "T2 Claude (동의): 동의합니다." in decision.summary


async def test_429_with_retry_info_is_retried_after_the_delay(
    fake: FakeGemini, make_moderator: MakeModerator, sleeps: Sleeps, db: Database
) -> None:
    fake.push(
        {"kind": "error", "status": 429, "retry_delay": "7s"},
        {"kind": "error", "status": 429, "retry_delay": "12.5s"},
        {"kind": "json", "obj": JUDGE_CONTINUE},
    )

    decision = await make_moderator().judge(view_after(*two_turns()))

    assert decision.source is ModeratorSource.GEMINI
    assert sleeps.waits == [7.0, 12.5]
    assert len(fake.generate_requests) == 3
    rows = await db.fetch_all("SELECT outcome FROM moderator_calls ORDER BY id")
    assert [row[0] for row in rows] == ["rate_limited", "rate_limited", "ok"]


async def test_429_three_times_goes_to_the_rules_for_that_step(
    fake: FakeGemini, make_moderator: MakeModerator, sleeps: Sleeps
) -> None:
    fake.push(*[{"kind": "error", "status": 429, "retry_delay": "1s"}] * 3)
    moderator = make_moderator()

    decision = await moderator.judge(view_after(*two_turns()))
    after = await moderator.judge(view_after(*two_turns()))

    assert decision.source is ModeratorSource.RULES
    assert sleeps.waits == [1.0, 1.0]  # at most two retries
    assert after.source is ModeratorSource.GEMINI  # a per-minute limit is not the day's quota
    assert len(fake.generate_requests) == 4


async def test_per_day_quota_pauses_detection_and_the_debate_still_concludes(
    fake: FakeGemini,
    make_moderator: MakeModerator,
    db: Database,
    day: Day,
    caplog: pytest.LogCaptureFixture,
) -> None:
    moderator = make_moderator()
    fake.push(
        {"kind": "json", "obj": JUDGE_CONTINUE},
        {"kind": "error", "status": 429, "quota_id": PER_DAY},
    )
    replies = [
        reply_text("Redis가 맞습니다.", "disagree"),
        reply_text("LRU가 낫습니다.", "disagree"),
        reply_text("LRU로 시작하죠.", "agree"),
        reply_text("좋습니다, 합의합니다.", "agree"),
    ]

    run = await run_debate(moderator, replies)

    sources = [d.source for d in run.decisions]
    assert sources == [ModeratorSource.GEMINI] + [ModeratorSource.RULES] * 3  # one per turn
    assert all(d.lasting for d in run.decisions[1:])  # until tomorrow: the mode switches
    assert run.decisions[-1].action is Action.CONCLUDE
    assert run.debate.phase is Phase.CONCLUDED
    assert run.conclusion is not None and run.conclusion.source is ModeratorSource.RULES
    assert "합의" in run.conclusion.decision or "동의" in run.conclusion.decision
    assert len(fake.generate_requests) == 2  # nothing was sent after the day's quota error
    quota = await db.fetch_all("SELECT day, reason FROM moderator_quota")
    assert [tuple(row) for row in quota] == [("2026-11-30", "quota")]

    window = (chat(1, "Redis로 갈지 LRU로 갈지 결정해야 해", 0), chat(2, "어느 쪽이 나을까", 1))
    detections = [await moderator.detect(window) for _ in range(5)]
    assert all(not d.debate_worthy and d.source is ModeratorSource.RULES for d in detections)
    assert len(fake.generate_requests) == 2  # detection is paused: no request
    spent_logs = [r for r in caplog.records if "spent" in r.getMessage()]
    assert len(spent_logs) == 1  # logged once, not once per step or message

    day.today += timedelta(days=1)
    fresh = await moderator.detect(window)
    assert fresh.source is ModeratorSource.GEMINI  # a new day: the model again
    assert len(fake.generate_requests) == 3


async def test_spent_budget_sends_no_further_requests(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database
) -> None:
    moderator = make_moderator(budget=3)
    view = view_after(*two_turns())

    decisions = [await moderator.judge(view) for _ in range(6)]

    assert len(fake.generate_requests) == 3
    assert [d.source for d in decisions] == [ModeratorSource.GEMINI] * 3 + [
        ModeratorSource.RULES
    ] * 3
    row = await db.fetch_one("SELECT COUNT(*) FROM moderator_calls WHERE day = '2026-11-30'")
    assert row is not None and row[0] == 3
    quota = await db.fetch_one("SELECT reason FROM moderator_quota WHERE day = '2026-11-30'")
    assert quota is not None and quota[0] == "budget"


async def test_budget_counts_repair_requests_too(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "invalid_json"})
    moderator = make_moderator(budget=1)

    decision = await moderator.judge(view_after(*two_turns()))

    assert decision.source is ModeratorSource.RULES
    assert len(fake.generate_requests) == 1  # the repair would have been the second request


@pytest.mark.parametrize(
    "step",
    [
        {"kind": "safety"},
        {"kind": "prompt_blocked"},
        {"kind": "error", "status": 500},
        {"kind": "error", "status": 503},
        {"kind": "hang"},
    ],
    ids=["safety", "prompt_blocked", "500", "503", "timeout"],
)
async def test_safety_block_server_error_and_timeout_fall_back_for_that_step(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database, step: dict
) -> None:
    fake.push(step, {"kind": "json", "obj": JUDGE_CONTINUE})
    moderator = make_moderator(timeout_s=0.5)
    question = {"to": "user", "text": "팀에 Redis 운영 경험이 있나요?"}
    turns = (
        turn(1, AG, reply_text("Redis", "disagree")),
        turn(2, CLAUDE, reply_text("음", "partial", question)),
    )

    fallback = await moderator.judge(view_after(*turns))
    recovered = await moderator.judge(view_after(*turns))

    assert fallback.source is ModeratorSource.RULES
    assert not fallback.lasting  # one step only: the thread is not told the mode changed
    assert fallback.action is Action.ASK_USER  # the rules: the latest turn asked the people
    assert fallback.user_question is not None and fallback.user_question.text == question["text"]
    assert recovered.source is ModeratorSource.GEMINI  # only that step fell back
    assert len(fake.generate_requests) == 2
    row = await db.fetch_one("SELECT outcome FROM moderator_calls ORDER BY id LIMIT 1")
    assert row is not None and row[0] in {"blocked", "error"}


async def test_a_timeout_is_recorded_in_words_a_person_reads(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database
) -> None:
    fake.push({"kind": "hang"})
    moderator = make_moderator(timeout_s=0.3)
    decision = await moderator.judge(view_after(turn(1, AG, reply_text("Redis", "partial"))))
    assert decision.source is ModeratorSource.RULES
    row = await db.fetch_one("SELECT error FROM moderator_calls ORDER BY id LIMIT 1")
    assert row is not None and "no answer within 0.3 s" in row[0]


async def test_a_huge_answer_is_refused_unread_and_its_repair_quotes_only_its_head(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database
) -> None:
    """A 6 MB judgement through the real SDK is not validated: one repair request, quoting
    at most ANSWER_CHARS of it, then the rules; nothing of its size is kept."""
    huge = {**JUDGE_ASK, "user_question": "q" * 3_000_000, "user_options": ["o" * 30] * 100_000}
    fake.push({"kind": "json", "obj": huge}, {"kind": "json", "obj": huge})

    decision = await make_moderator().judge(view_after(*two_turns()))

    assert decision.source is ModeratorSource.RULES  # twice too large: the rules decide
    _first, repair = fake.generate_requests
    quoted = repair["json"]["contents"][1]["parts"][0]["text"]
    assert len(quoted) <= ANSWER_CHARS
    assert f"at most {ANSWER_CHARS:,}" in repair["json"]["contents"][2]["parts"][0]["text"]
    rows = await db.fetch_all("SELECT outcome FROM moderator_calls ORDER BY id")
    assert [row[0] for row in rows] == ["invalid", "invalid"]


async def test_a_long_question_and_forty_options_reach_the_state_within_a_questions_limits(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    """Under the whole-answer limit, a long question and many options still reach the state
    and the room only within a question's limits, with a note of what was left out."""
    long = {**JUDGE_ASK, "user_question": "q" * 150_000, "user_options": ["o" * 300] * 40}
    fake.push({"kind": "json", "obj": long})
    view = view_after(*two_turns())
    decision = await make_moderator().judge(view)
    step = transition(view.debate, Judged(2, decision), T0, random.Random(1))
    [ask] = [effect for effect in step.effects if isinstance(effect, AskUser)]
    assert step.debate.people.user_question == ask.question
    assert len(ask.question.text) <= QUESTION_CHARS + 20 and ask.question.text.endswith("(+15)")
    assert len(ask.question.options) == MAX_OPTIONS
    assert all(len(option) <= OPTION_CHARS for option in ask.question.options)
