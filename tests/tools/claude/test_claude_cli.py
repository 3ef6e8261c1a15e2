"""ClaudeCodeDebater driving the real `claude` CLI against the loopback fake Anthropic API."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from handlers.core.formats.adversarial.reply_schema import role_schema
from handlers.core.formats.boardroom.reply import missing_parts, parse_position
from handlers.core.formats.boardroom.reply_schema import position_schema
from handlers.core.model import FailureKind
from handlers.core.reply.parser import parse_reply
from handlers.core.spending.limits import UNKNOWN_RESET_WAIT_S
from handlers.ports import DebaterError, TurnRequest
from tests.fakes.fake_anthropic import (
    REPO_ROOT,
    FakeAnthropic,
    processes_with_env,
    text_of,
    usage_limit,
)
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
    # The CLI checked the shape itself: the model was told what was wrong, then asked again;
    # it made the same call each time until the CLI gave up (the default retries).
    said = " ".join(json.dumps(m["messages"][-1]) for m in fake.messages()[1:])
    assert "does not match required schema" in said
    tools = {tool["name"]: tool for tool in fake.messages()[0]["tools"]}
    assert tools["StructuredOutput"]["input_schema"] == json.loads(REPLY_SCHEMA)
    assert json.loads(output.raw)["subtype"] == "error_max_structured_output_retries"
    assert json.loads(output.text) == {"opinion": "x", "stance": "maybe"}  # its last attempt
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
    """CLAUDE_STRUCTURED_OUTPUT off: no `--json-schema`, the reply streams as text and the
    format's own parser reads it."""
    await add_debate(db, 1)
    fake.script_replies("prose, shown live as it is written")
    output = await make_debater(structured=False).speak(shaped(1, "Redis or LRU?"))
    assert output.text == "prose, shown live as it is written"
    assert all(t.get("name") != "StructuredOutput" for t in fake.messages()[0]["tools"])


WORDS_SCHEMA = json.dumps(
    {
        "type": "object",
        "properties": {
            "opinion": {"type": "string", "contentMediaType": "text/markdown"},
            "stance": {"enum": ["agree", "disagree"]},
        },
        "required": ["opinion", "stance"],
    }
)


async def test_a_structured_answer_s_words_are_shown_live_from_the_tool_s_partial_input(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    """The answer comes through StructuredOutput; its opinion is shown as its partial JSON
    arrives, escapes and surrogate pairs cut across deltas, long before the answer ends."""
    await add_debate(db, 1)
    opinion = "".join(f'줄 {i}: "quoted", é\\ 😀 𝄞\n' for i in range(40))
    fake.script_replies(json.dumps({"opinion": opinion, "stance": "agree"}))
    fake.stream_chunk, fake.stream_hold_after = 7, 3  # three deltas, then held until released
    shown: list[str] = []

    def on_text(text: str) -> None:
        shown.append(text)
        fake.release()

    request = replace(shaped(1, "go"), reply_schema=WORDS_SCHEMA, on_text=on_text)
    output = await make_debater(structured=True).speak(request)
    assert shown[0] and len(shown[0]) < 21  # shown before the rest was even sent
    assert all(b.startswith(a) for a, b in itertools.pairwise(shown))
    assert shown[-1] == opinion  # every character, decoded as JSON reads it
    assert json.loads(output.text) == {"opinion": opinion, "stance": "agree"}  # the record


async def test_a_schema_the_cli_gives_up_on_leaves_the_last_attempt_to_the_format_s_parser(
    make_debater: Build, fake: FakeAnthropic, db: Database, config_dir: Path
) -> None:
    """Every attempt lacks `stance`: the CLI stops (error_max_structured_output_retries) and
    the turn is the model's last attempt, whole, for the format's parser."""
    await add_debate(db, 1)
    attempts = [json.dumps({"opinion": f"attempt {i}, every word kept"}) for i in range(1, 6)]
    fake.script_replies(*attempts)
    fake.corrects_itself = True  # each attempt another scripted one, each lacking
    env = fake.cli_env(config_dir) | {"MAX_STRUCTURED_OUTPUT_RETRIES": "2"}
    debater = make_debater(structured=True, env=env, keep_api_key=True)
    output = await debater.speak(shaped(1, "Redis or LRU?"))
    assert json.loads(output.raw)["subtype"] == "error_max_structured_output_retries"
    tried = len(fake.messages())
    assert 1 < tried < len(attempts)
    assert json.loads(output.text) == json.loads(attempts[tried - 1])
    assert parse_reply(output.text).opinion == f"attempt {tried}, every word kept"


def adversarial_demo(role: str) -> str:
    """The recorded answer of an adversarial role (English demo)."""
    demo = REPO_ROOT / "handlers/core/formats/adversarial/demo/en.json"
    turns = json.loads(demo.read_text())
    return str(next(t["reply"] for t in turns["turns"] if t["seat"] == role))


async def test_the_cli_checks_a_prefix_answer_by_its_role_s_schema_and_the_record_is_its_text(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    """The adversarial schema's patterns run in the CLI's own validator: an answer that lacks
    a prefix is refused and asked again; the one that fits is recorded as the text it wraps,
    and shown live as it is written."""
    await add_debate(db, 1)
    answer = adversarial_demo("claude")  # the Challenger's
    lacking = answer.replace("[ALTERNATIVE]", "ALTERNATIVE:", 1)
    fake.script_replies(json.dumps({"reply": lacking}), json.dumps({"reply": answer}))
    fake.corrects_itself = True
    shown: list[str] = []
    request = replace(shaped(1, "go"), reply_schema=role_schema("challenger"), on_text=shown.append)
    output = await make_debater(structured=True).speak(request)
    said = " ".join(json.dumps(m["messages"][-1]) for m in fake.messages()[1:])
    assert "does not match required schema" in said  # the lacking one, refused by the CLI
    assert len(fake.messages()) == 2
    assert output.text == answer  # the prefix text as written, not its JSON wrapping
    assert shown[-1] == answer and len(shown) > 2


async def test_a_boardroom_position_passes_the_cli_s_check_and_reads_whole(
    make_debater: Build, fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    answer = {
        "vote": "조건부",
        "argument": "감사 관점에서 outbox가 낫다.\n\n단, 카드 데이터는 싣지 않는다.",
        "risks": ["보존 기간 위반", "테이블 비대화"],
        "conditions": "카드 데이터가 없을 때 통한다 / 보존 정책이 없으면 실패한다",
        "metrics": ["이벤트 유실 0건", "p95 지연 1초 미만"],
    }
    fake.script_replies(json.dumps(answer, ensure_ascii=False))
    request = replace(shaped(1, "go"), reply_schema=position_schema("ko"))
    output = await make_debater(structured=True).speak(request)
    assert len(fake.messages()) == 1  # satisfied at once
    assert json.loads(output.text) == answer
    found = parse_position(output.text, 1)
    assert missing_parts(found, 1) == () and found.vote == "conditional"
