"""A format's moderator tasks on the real google-genai SDK against the fake Gemini: a JSON
task gets one repair request, a text task asks for plain text, every request counts against
the daily budget, and the rules stand in (ModeratorUnavailable) when the model cannot."""

from __future__ import annotations

import json

import pytest

from handlers.core.formats.adversarial.audit import read_audit
from handlers.core.formats.adversarial.schemas import IntakeTaskReply
from handlers.ports import ModeratorUnavailable, TaskRequest
from handlers.rules_moderator import RulesModerator
from tests.fakes.fake_gemini import FakeGemini
from tests.handlers.adversarial_script import intake
from tests.tools.gemini.conftest import MakeModerator
from tools.store.db import Database

INTAKE = TaskRequest(1, "intake", "AUDIT THIS", json=True, schema=IntakeTaskReply)
PROBE = TaskRequest(debate_id=1, task="probe-cost", prompt="PROBE THIS", json=False)
CALLS = "SELECT purpose, outcome FROM moderator_calls ORDER BY id"


async def test_a_json_task_gets_one_repair_request(
    fake: FakeGemini, make_moderator: MakeModerator, db: Database
) -> None:
    bad = {"kind": "invalid_json", "text": "Sure: {evidence"}
    fake.push(bad, {"kind": "json", "obj": json.loads(intake(2))})
    moderator = make_moderator(language="en")
    output = await moderator.perform(INTAKE)
    assert read_audit(output, "q") == read_audit(intake(2), "q")
    first, repair = fake.generate_requests
    assert first["json"]["generationConfig"]["responseMimeType"] == "application/json"
    assert "AUDIT THIS" in first["text"] and "Sure: {evidence" in repair["text"]
    rows = [(r[0], r[1]) for r in await db.fetch_all(CALLS)]
    assert rows == [("task", "invalid"), ("task", "ok")]


async def test_a_json_task_invalid_twice_leaves_it_to_the_rules(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "text", "text": "[1, 2]"}, {"kind": "text", "text": "no json"})
    with pytest.raises(ModeratorUnavailable):
        await make_moderator().perform(INTAKE)
    assert len(fake.generate_requests) == 2


async def test_a_text_task_asks_for_plain_text_and_counts_against_the_budget(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    fake.push({"kind": "text", "text": "[STABLE] yes — holds"})
    moderator = make_moderator(budget=1)
    assert await moderator.perform(PROBE) == "[STABLE] yes — holds"
    config = fake.generate_requests[0]["json"]["generationConfig"]
    assert config["responseMimeType"] == "text/plain" and "responseSchema" not in config
    with pytest.raises(ModeratorUnavailable):  # the day's budget is spent: nothing is sent
        await moderator.perform(PROBE)
    assert len(fake.generate_requests) == 1


async def test_the_rule_based_moderator_never_performs_a_task(rules: RulesModerator) -> None:
    with pytest.raises(ModeratorUnavailable):
        await rules.perform(PROBE)
