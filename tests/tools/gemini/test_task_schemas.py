"""Every JSON task of a format sends its response schema (the real google-genai SDK against the
loopback fake Gemini), its answer is validated against it (one repair, then the format's
fallback), and the format's reader reads what the schema makes the model return."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import pytest
from pydantic import BaseModel

from handlers.core.formats import FORMATS, format_named
from handlers.core.formats.adversarial.audit import read_audit
from handlers.core.formats.adversarial.schemas import IntakeTaskReply
from handlers.core.formats.boardroom.report import tracker_rows
from handlers.core.formats.boardroom.schemas import (
    AdvisorTaskReply,
    DecisionTaskReply,
    SynthesisTaskReply,
)
from handlers.core.formats.ledger.schemas import FrontTaskReply, LedgerTaskReply
from handlers.core.formats.ledger.text import front_parts, ledger_items
from handlers.core.model import AG, CLAUDE
from handlers.core.poll.minority import from_output
from handlers.core.poll.schema import MinorityTaskReply
from handlers.core.poll.state import MINORITY_TASK
from handlers.ports import ModeratorUnavailable, TaskRequest
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.conftest import MakeModerator
from tests.tools.wiki.support import debate, turn

PROMPTS = {
    "minority_report": "THE PARTICIPANTS (id: name): ag: AG, claude: Claude\n",
    "front-page": "The ledger, each item with its id:\nA1: LRU first\nQ1: TTL?\n",
    "front-page-repair": "The ledger, each item with its id:\nA1: LRU first\nM1: 3 nodes\n",
}
Reads = Callable[[str], bool]
EMPTY_SYNTHESIS = {
    "tracker": [],
    "tensions": [],
    "insight": "",
    "conditions": [],
    "guardrails": [],
    "irreconcilable": False,
    "recommendation": "",
    "question": "",
    "options": [],
}


def _minority_read(output: str) -> bool:
    turns = (turn(1, "LRU부터 시작하자는 입장입니다.", AG), turn(2, "Redis가 맞습니다.", CLAUDE))
    report = from_output(debate(), turns, output)
    return [s.position for s in report.sides] == ["auto position of ag", "auto position of claude"]


READS: dict[str, tuple[type[BaseModel], Reads]] = {
    "decision": (DecisionTaskReply, lambda out: json.loads(out)["decision"] == "auto decision"),
    "synthesis": (SynthesisTaskReply, lambda out: json.loads(out)["recommendation"] != ""),
    "advisor": (AdvisorTaskReply, lambda out: json.loads(out)["review"] == "auto review"),
    "intake": (IntakeTaskReply, lambda out: len(read_audit(out, "q").evidence) == 1),
    "minority_report": (MinorityTaskReply, _minority_read),
    "ledger": (
        LedgerTaskReply,
        lambda out: [i for i, _, _ in ledger_items(out)] == ["A1", "M1", "Q1"],
    ),
    "front-page": (FrontTaskReply, lambda out: "(A1), (Q1)" in front_parts(out)[0]),
    "front-page-repair": (FrontTaskReply, lambda out: "(M1)" in front_parts(out)[0]),
}


# Every task's model, as the engine sends it: the formats' own, and the stalemate's report.
TASK_SCHEMAS: dict[str, type[BaseModel]] = {
    task: model for name in FORMATS for task, model in format_named(name).task_schemas.items()
} | {MINORITY_TASK: MinorityTaskReply}


def test_every_json_task_of_the_formats_has_a_model() -> None:
    assert set(TASK_SCHEMAS) == set(READS)
    assert all(TASK_SCHEMAS[task] is model for task, (model, _) in READS.items())


@pytest.mark.parametrize("task", sorted(READS))
async def test_a_task_sends_its_schema_and_its_reader_reads_the_answer(
    fake: FakeGemini, make_moderator: MakeModerator, task: str
) -> None:
    model, reads = READS[task]
    prompt = PROMPTS.get(task, "DO IT")
    request = TaskRequest(debate_id=1, task=task, prompt=prompt, json=True, schema=model)
    output = await make_moderator(language="en").perform(request)
    [sent] = fake.generate_requests
    config = sent["json"]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    schema = config["responseSchema"]  # absent before: a JSON task sent no schema
    assert set(schema["properties"]) == set(model.model_fields)
    model.model_validate_json(output)
    assert reads(output)


async def test_a_task_answer_that_breaks_its_schema_is_repaired_then_left_to_the_rules(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    # JSON, but not the ledger's shape: before, any object was taken and the reader found
    # nothing in it (an empty ledger, from a debate whose turns proposed claims).
    wrong = {"kind": "json", "obj": {"claims": ["LRU first"]}}
    right = {"agreed": ["LRU first"], "amendments": [], "open": ["TTL?"]}
    fake.push(wrong, {"kind": "json", "obj": right})
    ledger = LedgerTaskReply
    request = TaskRequest(1, "ledger", "WRITE THE LEDGER", json=True, schema=ledger)
    moderator = make_moderator()
    assert json.loads(await moderator.perform(request)) == right
    assert "agreed" in fake.generate_requests[1]["text"]  # the repair names what is missing
    fake.push(wrong, wrong)
    with pytest.raises(ModeratorUnavailable):
        await moderator.perform(request)
    assert len(fake.generate_requests) == 4


async def test_a_synthesis_that_neither_recommends_nor_asks_is_repaired(
    fake: FakeGemini, make_moderator: MakeModerator
) -> None:
    empty = EMPTY_SYNTHESIS
    advised = {
        **empty,
        "tracker": [{"member": "ag", "why": "Claude's point"}],
        "recommendation": "r",
    }
    fake.push({"kind": "json", "obj": empty}, {"kind": "json", "obj": advised})
    model = SynthesisTaskReply
    request = TaskRequest(
        debate_id=1, task="synthesis", prompt="SYNTHESISE", json=True, schema=model
    )
    output = await make_moderator().perform(request)
    assert json.loads(output)["recommendation"] == "r"
    assert len(fake.generate_requests) == 2


def test_the_boardroom_reads_the_schema_s_tracker() -> None:
    # The schema cannot carry a dict (the SDK refuses dict fields): the tracker is a list.
    changed = {"tracker": [{"member": "claude", "why": "AG's load test"}], "recommendation": "r"}
    stored = SynthesisTaskReply.model_validate({**EMPTY_SYNTHESIS, **changed}).model_dump_json()
    voted = (("vote/1/claude", "no"), ("vote/2/claude", "yes"), ("synthesis", stored))
    rows = tracker_rows(replace(debate(), moderation=replace(debate().moderation, outputs=voted)))
    assert [(row[3], row[4]) for row in rows] == [(False, ""), (True, "AG's load test")]
