"""The stream-json reader on real 2.1.332 output (recorded against the fake, deltas of 8 chars)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from handlers.core.model import FailureKind
from tools.claude.output import classify, parse_output
from tools.claude.stream import TextSoFar, progress, result_line

SAMPLES = Path(__file__).parent / "samples" / "2.1.332"


def sample(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / f"{name}.json").read_text())
    return data


def streamed(stdout: str) -> list[str]:
    """The text so far after each line that added some."""
    reader = TextSoFar()
    return [reader.text for line in stdout.splitlines(keepends=True) if reader.feed(line)]


def test_the_streamed_text_grows_to_exactly_the_result() -> None:
    s = sample("stream_success")
    steps = streamed(s["stdout"])
    final = parse_output(s["stdout"]).result
    assert len(steps) == 7  # one per 8-character delta
    assert all(later.startswith(earlier) for earlier, later in itertools.pairwise(steps))
    assert steps[-1] == final
    assert "```code```" in final and "끝." in final  # multi-byte and fences, verbatim


def test_a_tool_call_streams_only_the_text_of_the_main_conversation() -> None:
    s = sample("stream_tool")
    steps = streamed(s["stdout"])
    assert steps, "the answer after the tool result streamed"
    assert steps[-1] == parse_output(s["stdout"]).result  # the tool_use JSON is not text


def test_lines_of_a_sub_conversation_and_other_lines_add_nothing() -> None:
    line = json.loads(
        next(
            line
            for line in sample("stream_success")["stdout"].splitlines()
            if '"text_delta"' in line
        )
    )
    reader = TextSoFar()
    assert not reader.feed(json.dumps(line | {"parent_tool_use_id": "toolu_1"}))
    assert not reader.feed('{"type":"system","subtype":"status"}')
    assert not reader.feed("not json at all, mentioning stream_event")
    assert reader.feed(json.dumps(line))
    assert reader.text == line["event"]["delta"]["text"]


def test_a_later_message_of_the_same_run_is_set_apart() -> None:
    def delta(text: str) -> str:
        event = {"type": "content_block_delta", "delta": {"type": "text_delta", "text": text}}
        return json.dumps({"type": "stream_event", "parent_tool_use_id": None, "event": event})

    start = json.dumps(
        {"type": "stream_event", "parent_tool_use_id": None, "event": {"type": "message_start"}}
    )
    reader = TextSoFar()
    for line in (start, delta("Let me look."), start, delta("Found it.")):
        reader.feed(line)
    assert reader.text == "Let me look.\n\nFound it."


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("stream_success", None),
        ("stream_tool", None),
        ("stream_is_error_429", FailureKind.RATE_LIMITED),
        ("stream_no_session", FailureKind.SESSION_MISSING),
    ],
)
def test_the_result_line_is_classified_as_before(name: str, kind: FailureKind | None) -> None:
    s = sample(name)
    parsed, failure = classify(s["exit_code"], s["stdout"], s["stderr"], 0.0)
    assert (failure.kind if failure else None) is kind
    if kind is None:
        assert parsed is not None and parsed.session_id and parsed.result


def test_the_record_is_the_result_line_alone() -> None:
    stdout = sample("stream_success")["stdout"]
    record = result_line(stdout)
    assert "\n" not in record and json.loads(record)["type"] == "result"
    assert parse_output(record) == parse_output(stdout)


def _delta(text: str) -> str:
    event = {"type": "content_block_delta", "delta": {"type": "text_delta", "text": text}}
    return json.dumps({"type": "stream_event", "parent_tool_use_id": None, "event": event})


def test_lines_handed_over_together_show_the_text_once_and_whole() -> None:
    # A burst of deltas is one hand-over: the text so far is joined and shown once for it,
    # and it is every delta of the burst, those of the earlier hand-overs before them.
    lines = sample("stream_success")["stdout"].splitlines(keepends=True)
    shown: list[str] = []
    read = progress(shown.append)
    read(lines[:3])  # the system lines: no text yet, nothing shown
    read(lines[3:])
    read(["not json\n", '{"type":"system"}\n'])  # nothing added: nothing shown again
    assert shown == [parse_output(sample("stream_success")["stdout"]).result]
    whole = "".join(f"{i:06d} 가나다\n" for i in range(20_000))
    many = [_delta(whole[i : i + 8]) for i in range(0, len(whole), 8)]
    shown.clear()
    read = progress(shown.append)
    read(many[:100])
    read(many[100:])
    assert shown == [whole[:800], whole]
