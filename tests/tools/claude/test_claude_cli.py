"""ClaudeCodeDebater driving the real `claude` CLI against the loopback fake Anthropic API."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from handlers.core.model import FailureKind
from handlers.core.spending.limits import UNKNOWN_RESET_WAIT_S
from handlers.ports import DebaterError, TurnRequest
from tests.fakes.fake_anthropic import FakeAnthropic, processes_with_env, text_of, usage_limit
from tests.tools.claude.conftest import SYSTEM_PROMPT, add_debate
from tools.claude.debater import ClaudeCodeDebater
from tools.store.db import Database

pytestmark = pytest.mark.cli

Build = Callable[..., ClaudeCodeDebater]
SESSION = "SELECT session_id, workdir FROM agent_sessions WHERE debate_id = ? AND seat = 'claude'"


def ask(debate_id: int, turn: int, prompt: str, fresh: bool = False) -> TurnRequest:
    return TurnRequest(debate_id=debate_id, turn=turn, round=1, prompt=prompt, fresh_session=fresh)


def texts(body: dict[str, Any], role: str) -> list[str]:
    """Every text of the request's messages of one role, in order."""
    return [text_of(m.get("content")) for m in body["messages"] if m.get("role") == role]


def user_blocks(body: dict[str, Any]) -> list[str]:
    """The text blocks of the last user message (the CLI adds reminders as separate blocks)."""
    last = [m for m in body["messages"] if m.get("role") == "user"][-1]["content"]
    if isinstance(last, str):
        return [last]
    return [b.get("text", "") for b in last if b.get("type") == "text"]


async def stored_session(db: Database, debate_id: int) -> tuple[str, str] | None:
    row = await db.fetch_one(SESSION, (debate_id,))
    return (str(row[0]), str(row[1])) if row else None


async def test_first_turn_then_two_resumes_carry_the_whole_conversation(
    make_debater: Build, fake: FakeAnthropic, db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    debater = make_debater(model="claude-test-model-1")
    fake.script_replies("first answer", "second answer", "third answer")
    prompts = ["opening: Redis or LRU?", "AG replied: use Redis.", "AG replied: fine, LRU first."]
    outputs = []
    for turn, prompt in enumerate(prompts, start=1):
        outputs.append(await debater.speak(ask(1, turn, prompt)))
        assert (await stored_session(db, 1))[0] == outputs[-1].meta.session_id  # latest wins

    assert [o.text for o in outputs] == ["first answer", "second answer", "third answer"]
    bodies = fake.messages()
    assert len(bodies) == 3
    third = bodies[2]
    user_texts = "\n".join(texts(third, "user"))
    positions = [user_texts.index(p) for p in prompts]
    assert positions == sorted(positions)  # all three prompts, in order
    assert texts(third, "assistant") == ["first answer", "second answer"]
    for body in bodies:
        assert SYSTEM_PROMPT in json.dumps(body["system"])  # passed on every call
        # 2.1.332 also sends an internal "DeferredToolPlaceholder" (no tool a model can call)
        sent = sorted(t["name"] for t in body["tools"] if t["name"] != "DeferredToolPlaceholder")
        assert sent == ["Glob", "Grep", "Read"]
        assert body["model"] == "claude-test-model-1"

    meta = outputs[2].meta
    assert meta.session_id == outputs[0].meta.session_id
    assert (meta.input_tokens, meta.output_tokens, meta.num_turns) == (10, 5, 1)
    assert meta.cost_usd > 0 and meta.latency_s > 0
    assert meta.model == "claude-test-model-1"
    assert json.loads(outputs[2].raw)["result"] == "third answer"
    workdir = Path((await stored_session(db, 1))[1])
    assert workdir == tmp_path / "data" / "claude" / "1" and workdir.is_dir()


async def test_a_dash_prompt_and_a_60000_character_prompt_arrive_intact(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    debater = make_debater()
    dash = "--resume is not an option here; -p neither.\n- a list item"
    line = "캐시 계층: Redis vs in-process LRU — $HOME `x` \"quoted\" 'single' \\back\n"
    long = (line * (60_000 // len(line) + 1))[:60_000]
    await debater.speak(ask(1, 1, dash))
    await debater.speak(ask(1, 2, long))
    first, second = fake.messages()
    assert dash in user_blocks(first)
    assert len(long) == 60_000 and long in user_blocks(second)


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (429, FailureKind.RATE_LIMITED),
        (500, FailureKind.SERVER),
        (401, FailureKind.AUTH),
        ("dead", FailureKind.UNREACHABLE),
    ],
)
async def test_failures_give_their_kind_within_seconds(
    make_debater: Build,
    fake: FakeAnthropic,
    db: Database,
    config_dir: Path,
    status: int | str,
    kind: FailureKind,
) -> None:
    await add_debate(db, 1)
    env = fake.cli_env(config_dir)
    if status == "dead":
        with FakeAnthropic() as gone:
            env["ANTHROPIC_BASE_URL"] = gone.url  # nothing listens there once it stopped
    else:
        fake.mode = status
    debater = make_debater(env=env)
    started = time.monotonic()
    with pytest.raises(DebaterError) as caught:
        await debater.speak(ask(1, 1, "hello"))
    assert caught.value.kind is kind
    assert caught.value.detail
    assert time.monotonic() - started < 30  # the CLI's default retries would take minutes
    assert len(fake.message_requests()) == (0 if status == "dead" else 1)  # no CLI retry
    assert await stored_session(db, 1) is None  # a failed first call leaves nothing to resume


async def test_the_cli_retries_only_as_often_as_configured(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    debater = make_debater(max_retries=1)
    fake.script(429, 200)  # one retry is allowed: the second answer gets through
    output = await debater.speak(ask(1, 1, "hello"))
    assert output.text.startswith("FAKE REPLY")
    assert [c.status for c in fake.message_requests()] == [429, 200]

    fake.script(429, 429, 200)  # a second retry is not: the CLI gives up before the 200
    with pytest.raises(DebaterError) as caught:
        await debater.speak(ask(1, 2, "again"))
    assert caught.value.kind is FailureKind.RATE_LIMITED
    assert [c.status for c in fake.message_requests()] == [429, 200, 429, 429]


async def test_an_unknown_session_leads_to_a_fresh_seeded_session(
    make_debater: Build, fake: FakeAnthropic, db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    gone = "11111111-2222-4333-8444-555555555555"
    workdir = tmp_path / "data" / "claude" / "1"
    await db.execute(
        "INSERT INTO agent_sessions (debate_id, seat, session_id, workdir, updated_at) "
        "VALUES (1, 'claude', ?, ?, '2025-01-01T00:00:00+00:00')",
        (gone, str(workdir)),
    )
    debater = make_debater()
    with pytest.raises(DebaterError) as caught:
        await debater.speak(ask(1, 3, "AG replied: ..."))
    assert caught.value.kind is FailureKind.SESSION_MISSING
    assert fake.messages() == []

    seed = "Summary so far: ...\nWorking-Document: ...\nAG replied: ..."
    output = await debater.speak(ask(1, 3, seed, fresh=True))
    assert output.meta.session_id and output.meta.session_id != gone
    assert (await stored_session(db, 1))[0] == output.meta.session_id
    (body,) = fake.messages()
    assert texts(body, "assistant") == []  # a new conversation: only the seeded prompt
    assert seed in user_blocks(body)


async def test_a_reply_slower_than_the_timeout_is_killed_with_its_process_group(
    make_debater: Build, fake: FakeAnthropic, db: Database, config_dir: Path
) -> None:
    await add_debate(db, 1)
    fake.mode = "hold"  # the request arrives and is never answered
    debater = make_debater(timeout_s=4.0, grace_s=2.0)
    with pytest.raises(DebaterError) as caught:
        await asyncio.wait_for(debater.speak(ask(1, 1, "take your time")), 30)
    assert caught.value.kind is FailureKind.TIMEOUT
    (call,) = fake.message_requests()
    assert call.done is None  # killed while waiting for the model, not before it asked
    assert processes_with_env(str(config_dir)) == []


async def test_cancelling_a_turn_kills_the_cli(
    make_debater: Build, fake: FakeAnthropic, db: Database, config_dir: Path
) -> None:
    await add_debate(db, 1)
    fake.mode = "hold"
    turn = asyncio.create_task(make_debater().speak(ask(1, 1, "take your time")))
    await fake.wait_messages(1)
    assert processes_with_env(str(config_dir))
    turn.cancel()  # what the engine does when someone presses Stop
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(turn, 30)
    assert processes_with_env(str(config_dir)) == []


async def test_denied_tool_uses_are_recorded_with_the_turn(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    output = await make_debater().speak(ask(1, 1, 'CALL_TOOL Read {"file_path": "/etc/hostname"}'))
    assert output.meta.denied_tools == ("Read",)  # outside the working directory: refused
    assert "is_error" in output.text  # the model got the refusal, not the file


def overlapping(fake: FakeAnthropic) -> bool:
    """True if two model calls were in flight at the same time."""
    calls = sorted(fake.message_requests(), key=lambda r: r.arrived)
    return any(b.arrived < (a.done or float("inf")) for a, b in itertools.pairwise(calls))


async def test_turns_of_one_debate_run_one_at_a_time(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    fake.delay_s = 1.0  # long enough that two unserialised CLIs would meet at the fake
    fake.script_replies("answer A", "answer B")
    debater = make_debater(max_concurrency=2)
    a, b = await asyncio.gather(
        debater.speak(ask(1, 1, "prompt A")), debater.speak(ask(1, 2, "prompt B"))
    )
    assert not overlapping(fake)
    assert a.meta.session_id == b.meta.session_id  # the second resumed the first
    second = fake.messages()[1]
    assert texts(second, "assistant") == ["answer A"]


async def test_no_more_cli_processes_than_max_concurrency(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    await add_debate(db, 2)
    fake.delay_s = 1.0
    debater = make_debater(max_concurrency=1)
    a, b = await asyncio.gather(debater.speak(ask(1, 1, "one")), debater.speak(ask(2, 1, "two")))
    assert not overlapping(fake)
    assert a.meta.session_id != b.meta.session_id  # two debates, two sessions


async def test_the_reply_is_shown_as_it_streams_and_the_result_stays_the_record(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    reply = "".join(f"문장 {i}: the reply grows line by line.\n" for i in range(40))
    fake.script_replies(reply)
    fake.stream_chunk, fake.stream_hold_after = 50, 3  # three deltas, then held until released
    shown: list[str] = []

    def on_text(text: str) -> None:
        shown.append(text)
        fake.release()  # the first text arrived while the rest was still held back

    request = TurnRequest(debate_id=1, turn=1, round=1, prompt="go", on_text=on_text)
    output = await make_debater().speak(request)
    assert shown[0] and len(shown[0]) <= 150  # shown before the rest was even sent
    assert all(b.startswith(a) for a, b in itertools.pairwise(shown))
    assert shown[-1] == output.text == reply  # every character, and the record is the result
    assert json.loads(output.raw)["type"] == "result"


@pytest.mark.parametrize(
    ("reset", "wait"),
    [
        ("past", (-700.0, -500.0)),  # no rate_limit_event: the error message carries the reset
        ("milliseconds", (3500.0, 3700.0)),
        ("year 10000", (UNKNOWN_RESET_WAIT_S, UNKNOWN_RESET_WAIT_S)),
        ("none", (UNKNOWN_RESET_WAIT_S, UNKNOWN_RESET_WAIT_S)),
    ],
)
async def test_a_usage_limit_is_a_limit_whatever_its_reset_time_says(
    make_debater: Build,
    fake: FakeAnthropic,
    db: Database,
    config_dir: Path,
    reset: str,
    wait: tuple[float, float],
) -> None:
    """Signed in with a subscription, the real CLI reports a usage limit whose reset is
    already past, in milliseconds, past the calendar or absent: each is a limit with a wait
    the engine can hold (never "credits used up", never an overflow)."""
    await add_debate(db, 1)
    now = int(time.time())
    at = {"past": now - 600, "milliseconds": (now + 3600) * 1000, "year 10000": 253402300810}
    fake.script(usage_limit(at.get(reset, 0)))
    env = fake.cli_env(config_dir)
    env.pop("ANTHROPIC_API_KEY")
    env["CLAUDE_CODE_OAUTH_TOKEN"] = "sk-ant-oat01-fake-subscription"  # limits need a plan
    debater = make_debater(env=env, keep_api_key=False)
    with pytest.raises(DebaterError) as caught:
        await debater.speak(ask(1, 1, "hello"))
    assert caught.value.kind is FailureKind.LIMIT
    assert caught.value.retry_after is not None
    assert wait[0] <= caught.value.retry_after <= wait[1]


REPLY_SCHEMA = json.dumps(
    {
        "type": "object",
        "properties": {"opinion": {"type": "string"}, "stance": {"enum": ["agree", "disagree"]}},
        "required": ["opinion", "stance"],
    }
)


def shaped(debate_id: int, prompt: str, budget_usd: float | None = None) -> TurnRequest:
    """A turn that asks for the reply's shape (and, given, caps its spend)."""
    return TurnRequest(
        debate_id=debate_id,
        turn=1,
        round=1,
        prompt=prompt,
        reply_schema=REPLY_SCHEMA,
        budget_usd=budget_usd,
    )


async def test_the_cli_validates_the_reply_s_shape_and_the_record_is_its_json(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    answer = {"opinion": "Redis, because " + "every word stays " * 50, "stance": "agree"}
    wrong = 'CALL_TOOL StructuredOutput {"opinion": "x", "stance": "maybe"}'
    output = await make_debater(structured=True).speak(shaped(1, wrong))
    # The CLI checked the shape itself: the model was told what was wrong, then asked again.
    said = " ".join(json.dumps(m["messages"][-1]) for m in fake.messages()[1:])
    assert "does not match required schema" in said
    tools = {tool["name"]: tool for tool in fake.messages()[0]["tools"]}
    assert tools["StructuredOutput"]["input_schema"] == json.loads(REPLY_SCHEMA)
    assert "FAKE REPLY" in output.text  # asked again, it answered; every word it wrote is kept
    good = "CALL_TOOL StructuredOutput " + json.dumps(answer)
    output = await make_debater(structured=True).speak(shaped(1, good))
    assert json.loads(output.text) == answer  # satisfied: the validated object, whole


async def test_an_answer_the_schema_never_got_is_kept_whole_for_the_format_s_parser(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    fake.follows_schema = False  # a model that writes prose whatever it is asked
    fake.script_replies("my whole first answer, in prose", "still prose", "prose again")
    output = await make_debater(structured=True).speak(shaped(1, "Redis or LRU?"))
    # The CLI asked once more for the shape; the record holds both answers, not only the last.
    assert output.text == "my whole first answer, in prose\n\nstill prose"


async def test_the_dollar_cap_keeps_an_answer_it_stopped_after_and_pauses_one_it_stopped_before(
    make_debater: Build, fake: FakeAnthropic, db: Database, tmp_path: Path
) -> None:
    await add_debate(db, 1)
    fake.script_replies("the answer the cap came after")
    capped = shaped(1, "Redis or LRU?", budget_usd=0.000001)
    kept = await make_debater(structured=True).speak(capped)
    assert "the answer the cap came after" in kept.text and kept.meta.cost_usd > 0
    # A first call that only used a tool: nothing written yet when the cap stops it.
    (tmp_path / "data" / "claude" / "2").mkdir(parents=True)
    await add_debate(db, 2)
    tool = 'CALL_TOOL Glob {"pattern": "*"}'
    with pytest.raises(DebaterError) as stopped:
        await make_debater(structured=True).speak(shaped(2, tool, budget_usd=0.000001))
    assert stopped.value.kind is FailureKind.BUDGET and stopped.value.cost_usd > 0
    calls = len(fake.messages())
    with pytest.raises(DebaterError) as nothing_left:
        await make_debater(structured=True).speak(shaped(2, "again?", budget_usd=0.0))
    assert nothing_left.value.kind is FailureKind.BUDGET
    assert len(fake.messages()) == calls  # no call made with nothing left to spend


async def test_without_structured_output_the_schema_stays_with_our_parser(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    """CLAUDE_STRUCTURED_OUTPUT off (the default): no `--json-schema`, the reply streams as
    text and the format's own parser reads it."""
    await add_debate(db, 1)
    fake.script_replies("prose, shown live as it is written")
    output = await make_debater().speak(shaped(1, "Redis or LRU?"))
    assert output.text == "prose, shown live as it is written"
    assert all(t.get("name") != "StructuredOutput" for t in fake.messages()[0]["tools"])
