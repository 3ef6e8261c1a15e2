"""A format's task through GeminiModerator (the real SDK, the loopback fake Gemini): the JSON
answer, one repair request when no JSON object came back, and ModeratorUnavailable (the
format's fallback) when the model cannot serve it."""

from __future__ import annotations

import json

import pytest

from handlers.core.formats.ledger.schemas import LedgerTaskReply
from handlers.ports import ModeratorUnavailable, TaskRequest
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.conftest import MakeModerator

LEDGER = {"agreed": ["A는 참이다"], "amendments": [], "open": ["B는?"]}


def request(json_: bool = True) -> TaskRequest:
    schema = LedgerTaskReply if json_ else None  # the task's model, as the engine sends it
    return TaskRequest(1, "ledger", "원장을 쓰세요", json=json_, schema=schema)


async def test_a_task_returns_the_models_json(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "json", "obj": {"text": json.dumps(LEDGER, ensure_ascii=False)}})
    output = await make_moderator().perform(request())
    assert json.loads(output) == LEDGER
    [sent] = fake.generate_requests
    assert "원장을 쓰세요" in json.dumps(sent["json"], ensure_ascii=False)


async def test_a_task_without_a_json_object_gets_one_repair(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push(
        {"kind": "json", "obj": {"text": "원장은 다음과 같습니다"}},
        {"kind": "json", "obj": {"text": json.dumps(LEDGER)}},
    )
    assert json.loads(await make_moderator().perform(request())) == LEDGER
    assert len(fake.generate_requests) == 2


async def test_a_task_the_model_cannot_serve_raises_for_the_fallback(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "error", "status": 500})
    with pytest.raises(ModeratorUnavailable):
        await make_moderator().perform(request())
    assert len(fake.generate_requests) == 1
    fake.push({"kind": "json", "obj": {"text": "x"}}, {"kind": "json", "obj": {"text": "y"}})
    with pytest.raises(ModeratorUnavailable):  # no JSON object twice
        await make_moderator().perform(request())
    assert len(fake.generate_requests) == 3
