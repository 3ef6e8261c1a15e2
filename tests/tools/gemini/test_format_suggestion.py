"""The moderator suggests a format on detection: the prompt lists the registered formats with
when each fits, the reply's suggestion and reason reach the proposal (the card), and a reply
without them still proposes (the card then starts on DEFAULT_FORMAT)."""

from __future__ import annotations

import json

from handlers.core.formats import FORMATS
from tests.doubles import FakeClock
from tests.fakes.fake_gemini import FakeGemini
from tests.handlers.duo_format import DUO, registered
from tests.tools.gemini.builders import T0, chat
from tests.tools.gemini.conftest import MakeModerator
from tests.tools.gemini.test_detection import CHANNEL, DEBATE_LINES, OpenTopics, handler
from tools.gemini.context import detection_prompt
from tools.gemini.schemas import DetectionReply, to_detection

VERDICT = {
    "debate_worthy": True,
    "topic": "캐시 계층 선택",
    "question": "어떤 캐시?",
    "reason": "열린 결정",
    "confidence": 0.8,
}


async def _propose(fake: FakeGemini, make_moderator: MakeModerator, verdict: dict) -> object:
    fake.push({"kind": "json", "obj": verdict})
    detection = handler(make_moderator(), FakeClock(T0), OpenTopics())
    lines = [chat(n % 3 + 1, DEBATE_LINES[n], n) for n in range(4)]
    results = [await detection.on_message(CHANNEL, line, False) for line in lines]
    return results[-1]


async def test_the_suggested_format_and_its_reason_reach_the_proposal(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    verdict = VERDICT | {"suggested_format": "free", "format_reason": "두 안을 맞세워 볼 질문"}
    proposal = await _propose(fake, make_moderator, verdict)
    assert getattr(proposal, "suggested_format", None) == "free"
    assert getattr(proposal, "format_reason", None) == "두 안을 맞세워 볼 질문"
    sent = fake.generate_requests[-1]["text"]
    assert "`free`: an open design question" in sent  # prompts/free/fit.md


async def test_a_verdict_without_a_suggestion_still_proposes(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    proposal = await _propose(fake, make_moderator, VERDICT)
    assert getattr(proposal, "topic", None) == "캐시 계층 선택"
    assert getattr(proposal, "suggested_format", None) == ""


def test_a_format_that_registers_is_offered_to_the_moderator() -> None:
    window = (chat(1, DEBATE_LINES[0], 0),)
    registry = list(FORMATS)
    before = detection_prompt(window, "ko").system
    assert "`duo`" not in before and "`free`:" in before
    with registered(DUO):
        after = detection_prompt(window, "ko").system
    # no prompts/duo/fit.md: named without a description, still offered
    assert "  - `duo`" in after and list(FORMATS) == registry


def test_the_reply_schema_carries_the_suggestion_trimmed() -> None:
    reply = DetectionReply.model_validate_json(
        json.dumps(VERDICT | {"suggested_format": " ledger ", "format_reason": "x" * 5000})
    )
    detection = to_detection(reply)
    assert detection.suggested_format == "ledger"
    assert 0 < len(detection.format_reason) <= 2000
