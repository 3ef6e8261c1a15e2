"""Detection's calibrated probability: the Decisions API first (real SDK against the fake),
the moderator's own score when it gives none, and a card only at or above the threshold."""

from __future__ import annotations

from typing import Any

import pytest
from google import genai
from google.genai import types

from handlers.core.probability import probability_of
from handlers.detection import DetectionHandler, DetectionLimits, Verdict
from tests.doubles import FakeClock
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.builders import T0, chat
from tests.tools.gemini.conftest import Day, MakeModerator
from tests.tools.gemini.test_detection import CHANNEL, DEBATE_LINES, OpenTopics
from tools.gemini.decisions import QUESTION_ID, GeminiDecisionScorer, make_decisions_client
from tools.store.db import Database
from tools.store.quota import ModeratorQuota

VERDICT = {"debate_worthy": True, "topic": "캐시", "question": "어떤 캐시?", "reason": "r"}


@pytest.mark.parametrize(
    ("value", "read"),
    [
        (0.42, 0.42),
        (0, 0.0),
        (1, 1.0),
        ("0.8", 0.8),
        (None, None),  # missing
        (1.5, None),
        (-0.1, None),
        (float("nan"), None),
        (float("inf"), None),
        ("high", None),
        (True, None),
        ([0.5], None),
    ],
)
def test_a_probability_reads_only_as_a_number_from_0_to_1(
    value: object, read: float | None
) -> None:
    assert probability_of(value) == read


async def _scorer(
    fake: FakeGemini, db: Database, day: Day, budget: int = 100
) -> GeminiDecisionScorer:
    client = make_decisions_client("test-key", 10.0, base_url=fake.url)
    return GeminiDecisionScorer(client, "gemini-decision-1", ModeratorQuota(db, budget, day), 10.0)


def _detection(
    moderator: object,
    scorer: GeminiDecisionScorer | None,
    threshold: float | None,
    heard: list[Verdict],
) -> DetectionHandler:
    async def threshold_of(guild_id: int, channel_id: int) -> float | None:
        return threshold

    return DetectionHandler(
        moderator,  # type: ignore[arg-type]  # a GeminiModerator
        channels=(CHANNEL,),
        bot_user_id=999,
        limits=DetectionLimits(120, min_new_messages=4, min_confidence=0.7),
        clock=FakeClock(T0),
        has_open_topic=OpenTopics(),
        scorer=scorer,
        threshold_of=threshold_of,
        heard=heard.append,
    )


async def _four(detection: DetectionHandler) -> list[Any]:
    return [
        await detection.on_message(CHANNEL, chat(1 + n, DEBATE_LINES[n], n), False, guild_id=5)
        for n in range(4)
    ]


async def test_the_decisions_api_is_asked_one_yes_no_question_on_the_chat(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database, day: Day
) -> None:
    fake.push_decision({"kind": "noul", "p": 0.83}).push(
        {"kind": "json", "obj": {**VERDICT, "confidence": 0.2}}
    )
    scorer, heard = await _scorer(fake, db, day), []
    try:
        results = await _four(_detection(make_moderator(), scorer, 0.8, heard))
    finally:
        await scorer.aclose()
    proposal = results[3]
    assert proposal is not None and proposal.confidence == 0.83  # the API's, not the model's 0.2
    [request] = fake.decision_requests
    assert request["path"] == "/v1beta/decisions" and request["api_key"] == "test-key"
    body = request["json"]
    assert body["model"] == "gemini-decision-1"
    assert body["questions"][QUESTION_ID]["type"] == "noul"
    assert DEBATE_LINES[3] in body["input"]
    assert heard == [Verdict(CHANNEL, 0.83, "decisions", 0.8, proposed=True)]
    rows = await db.fetch_all("SELECT purpose, model, outcome FROM moderator_calls ORDER BY id", ())
    assert [tuple(r) for r in rows] == [
        ("decide", "gemini-decision-1", "ok"),
        ("detect", "gemini-flash-latest", "ok"),
    ]


async def test_below_the_threshold_the_moderator_is_not_asked_and_no_card(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database, day: Day
) -> None:
    fake.push_decision({"kind": "noul", "p": 0.55})
    scorer, heard = await _scorer(fake, db, day), []
    try:
        results = await _four(_detection(make_moderator(), scorer, 0.6, heard))
    finally:
        await scorer.aclose()
    assert results == [None] * 4
    assert fake.generate_requests == []  # the generated verdict was never asked for
    assert heard == [Verdict(CHANNEL, 0.55, "decisions", 0.6, proposed=False)]


@pytest.mark.parametrize(
    "step",
    [
        {"kind": "error", "status": 503},
        {"kind": "error", "status": 429},
        {"kind": "blocked"},
        {"kind": "body", "body": {"answers": {}}},
        {
            "kind": "body",
            "body": {"answers": {QUESTION_ID: {"type": "noul", "noul": 1.7, "confidence": 1}}},
        },
        {
            "kind": "body",
            "body": {"answers": {QUESTION_ID: {"type": "noul", "noul": "yes", "confidence": 1}}},
        },
    ],
)
async def test_no_usable_decision_falls_back_to_the_moderators_own_score(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database, day: Day, step: dict[str, Any]
) -> None:
    fake.push_decision(step).push({"kind": "json", "obj": {**VERDICT, "confidence": 0.75}})
    scorer, heard = await _scorer(fake, db, day), []
    try:
        results = await _four(_detection(make_moderator(), scorer, 0.7, heard))
    finally:
        await scorer.aclose()
    assert results[3] is not None and results[3].confidence == 0.75
    assert heard == [Verdict(CHANNEL, 0.75, "model", 0.7, proposed=True)]
    assert len(fake.decision_requests) == 1  # asked once: no SDK retries held the window
    row = await db.fetch_one(
        "SELECT outcome, error FROM moderator_calls WHERE purpose = 'decide'", ()
    )
    assert row is not None and row[0] != "ok" and row[1]  # counted, and why it did not serve


async def test_a_blocked_input_is_read_as_blocked(fake: FakeGemini, db: Database, day: Day) -> None:
    fake.push_decision({"kind": "blocked"})
    scorer = await _scorer(fake, db, day)
    try:
        assert await scorer.probability((chat(1, DEBATE_LINES[0], 0),)) is None
    finally:
        await scorer.aclose()
    row = await db.fetch_one("SELECT error, input_tokens FROM moderator_calls", ())
    assert row is not None and "blocked: safety" in row[0] and row[1] > 0


@pytest.mark.parametrize("confidence", [None, 1.5, "NaN", "high", -1])
async def test_an_unreadable_own_score_posts_no_card(
    fake: FakeGemini, make_moderator: MakeModerator, confidence: object
) -> None:
    verdict = dict(VERDICT) if confidence is None else {**VERDICT, "confidence": confidence}
    text = __import__("json").dumps(verdict).replace('"NaN"', "NaN")
    fake.push({"kind": "text", "text": text})
    heard: list[Verdict] = []
    results = await _four(_detection(make_moderator(), None, 0.0, heard))
    assert results == [None] * 4  # not even at threshold 0
    assert heard == [Verdict(CHANNEL, None, "model", 0.0, proposed=False)]
    assert len(fake.generate_requests) == 1  # no repair request for one number


async def test_the_scorer_counts_against_the_daily_budget(
    fake: FakeGemini, db: Database, day: Day
) -> None:
    scorer = await _scorer(fake, db, day, budget=0)
    try:
        assert await scorer.probability((chat(1, DEBATE_LINES[0], 0),)) is None
    finally:
        await scorer.aclose()
    assert fake.decision_requests == []


def test_the_decisions_client_makes_no_retries() -> None:
    client = make_decisions_client("k", 5.0)
    options = client._api_client._http_options  # the SDK reads these to build its retries
    assert options.retry_options is not None and options.retry_options.attempts == 1
    assert isinstance(client, genai.Client) and options.api_version == "v1beta"
    assert types.HttpOptions  # the public type the options are
