"""A format's task through the Gemini moderator (real google-genai SDK, fake Gemini API):
one JSON object, one repair request, counted against the daily budget; otherwise
ModeratorUnavailable, so the engine uses the format's fallback."""

from __future__ import annotations

import json

import pytest

from handlers.ports import ModeratorUnavailable, TaskRequest
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.conftest import MakeModerator
from tools.store.db import Database

REQUEST = TaskRequest(debate_id=1, task="synthesis", prompt="Write the synthesis.", json=True)
SYNTHESIS = {"tensions": ["speed against audit"], "irreconcilable": False}


async def test_a_task_answer_is_one_json_object_after_at_most_one_repair(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database
) -> None:
    fake.push({"kind": "invalid_json", "text": "Here it is: tensions are"},
              {"kind": "json", "obj": SYNTHESIS})  # fmt: skip
    output = await make_moderator().perform(REQUEST)
    assert json.loads(output) == SYNTHESIS
    first, repair = fake.generate_requests
    assert "Write the synthesis." in first["text"]
    assert "responseSchema" not in first["json"].get("generationConfig", {})  # JSON, any shape
    assert [c["role"] for c in repair["json"]["contents"]] == ["user", "model", "user"]
    rows = await db.fetch_all("SELECT purpose, outcome FROM moderator_calls ORDER BY id")
    assert [tuple(row) for row in rows] == [("task", "invalid"), ("task", "ok")]


async def test_a_task_invalid_twice_or_over_budget_is_unavailable(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "invalid_json"}, {"kind": "invalid_json"})
    with pytest.raises(ModeratorUnavailable):
        await make_moderator().perform(REQUEST)
    spent = make_moderator(budget=0)
    with pytest.raises(ModeratorUnavailable):
        await spent.perform(REQUEST)
    assert len(fake.generate_requests) == 2  # the spent budget sent nothing
