"""The pure output parser on recorded outputs of 2.1.197 and 2.1.332-shaped samples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from handlers.core.model import FailureKind
from handlers.core.spending.state import Window
from tools.claude.output import ClaudeOutputError, classify, parse_output, reset_epoch, window_of
from tools.claude.stream import result_line

SAMPLES = Path(__file__).parent / "samples"


def sample(version: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / version / f"{name}.json").read_text())
    return data


def run_classify(version: str, name: str, now: float | None = None) -> Any:
    s = sample(version, name)
    return classify(s["exit_code"], s["stdout"], s["stderr"], now)


@pytest.mark.parametrize(
    ("version", "name", "kind"),
    [
        ("2.1.197", "success", None),
        ("2.1.197", "denied", None),
        ("2.1.197", "is_error_429", FailureKind.RATE_LIMITED),
        ("2.1.197", "is_error_401", FailureKind.AUTH),
        ("2.1.197", "is_error_403", FailureKind.AUTH),
        ("2.1.197", "is_error_500", FailureKind.SERVER),
        ("2.1.197", "is_error_529", FailureKind.SERVER),
        ("2.1.197", "is_error_400", FailureKind.USAGE),
        ("2.1.197", "unreachable", FailureKind.UNREACHABLE),
        ("2.1.197", "error_max_turns", FailureKind.USAGE),
        ("2.1.197", "no_session", FailureKind.SESSION_MISSING),
        ("2.1.197", "usage_error", FailureKind.USAGE),
        # recorded with the real 2.1.332 (which retries a 400 once, so that call succeeds)
        ("2.1.332", "success", None),
        ("2.1.332", "success_cache_shaped", None),
        ("2.1.332", "denied", None),
        ("2.1.332", "is_error_429", FailureKind.RATE_LIMITED),
        ("2.1.332", "is_error_401", FailureKind.AUTH),
        ("2.1.332", "is_error_403", FailureKind.AUTH),
        ("2.1.332", "is_error_500", FailureKind.SERVER),
        ("2.1.332", "is_error_529", FailureKind.SERVER),
        ("2.1.332", "is_error_400", None),
        ("2.1.332", "unreachable", FailureKind.UNREACHABLE),
        ("2.1.332", "error_max_turns", FailureKind.USAGE),
        ("2.1.332", "no_session", FailureKind.SESSION_MISSING),
        ("2.1.332", "usage_error", FailureKind.USAGE),
    ],
)
def test_each_sample_gets_its_failure_kind(
    version: str, name: str, kind: FailureKind | None
) -> None:
    parsed, failure = run_classify(version, name)
    if kind is None:
        assert failure is None
        assert parsed is not None and parsed.result
    else:
        assert failure is not None and failure.kind is kind
        assert failure.detail  # a person needs a reason


def test_success_2_1_197_fields() -> None:
    parsed, _ = run_classify("2.1.197", "success")
    assert parsed.result == "FAKE REPLY 1"
    assert parsed.session_id and len(parsed.session_id) == 36
    assert (parsed.input_tokens, parsed.output_tokens) == (10, 5)
    assert parsed.total_cost_usd == pytest.approx(0.000175)
    assert parsed.num_turns == 1
    assert parsed.model == "claude-opus-4-8"  # the "[1m]" context tag is dropped
    assert parsed.permission_denials == ()


def test_success_2_1_332_counts_cache_reads_as_input() -> None:
    parsed, _ = run_classify("2.1.332", "success_cache_shaped")  # shaped by hand from the notes
    assert parsed.input_tokens == 7 + 40 + 1200
    assert parsed.output_tokens == 321
    assert parsed.model == "claude-sonnet-4-6"
    assert parsed.result.startswith("## 의견")
    assert parsed.session_id == "0c8e2d1a-5b7f-4c3e-9a10-2f4b6d8e0a11"


@pytest.mark.parametrize(("version", "tools"), [("2.1.197", ("Read",)), ("2.1.332", ("Read",))])
def test_denied_tools_are_listed_in_order(version: str, tools: tuple[str, ...]) -> None:
    parsed, failure = run_classify(version, "denied")
    assert failure is None
    assert parsed.permission_denials == tools


@pytest.mark.parametrize("version", ["2.1.197", "2.1.332"])
def test_error_max_turns_has_no_result_but_a_reason(version: str) -> None:
    parsed, failure = run_classify(version, "error_max_turns")
    assert parsed.result is None
    assert parsed.subtype == "error_max_turns"
    assert "maximum number of turns" in failure.detail
    assert parsed.session_id  # the turn still happened in the session


def test_is_error_keeps_the_cli_message_and_status() -> None:
    parsed, failure = run_classify("2.1.197", "is_error_429")
    assert parsed.subtype == "success"  # the CLI says success on an error: is_error decides
    assert parsed.api_error_status == 429
    assert "429" in failure.detail


def test_empty_stdout_keeps_stderr_in_the_detail() -> None:
    _, failure = run_classify("2.1.197", "usage_error")
    assert failure.kind is FailureKind.USAGE
    assert "--no-such-option" in failure.detail


def test_empty_stdout_without_stderr_names_the_exit_code() -> None:
    parsed, failure = classify(3, "", "")
    assert parsed is None
    assert failure.kind is FailureKind.USAGE and "exit 3" in failure.detail


def test_unreadable_stdout_is_a_usage_error() -> None:
    _, failure = classify(1, "Segmentation fault\n", "core dumped")
    assert failure.kind is FailureKind.USAGE
    assert "core dumped" in failure.detail


def test_result_line_after_other_output_is_found() -> None:
    line = sample("2.1.197", "success")["stdout"]
    parsed = parse_output("warning: something\n" + line)
    assert parsed.result == "FAKE REPLY 1"


def test_a_reply_holding_unicode_line_breaks_is_read_whole() -> None:
    # The CLI's JSON escapes "\n" but writes U+2028, U+2029 and NEL as they are: a line
    # split there lost the result line, and the turn with it.
    reply = "first\u2028second\u2029third\x85fourth\x0cfifth"
    stdout = json.dumps(
        {"type": "result", "subtype": "success", "result": reply}, ensure_ascii=False
    )
    parsed, failure = classify(0, f'{{"type": "system"}}\n{stdout}\n', "")
    assert failure is None and parsed is not None and parsed.result == reply
    assert result_line(stdout + "\n") == stdout


def test_lines_nested_past_the_recursion_limit_are_passed_over() -> None:
    line = sample("2.1.197", "success")["stdout"].strip()
    deep = '{"type": "result", "result": ' + "[" * 100_000
    parsed, failure = classify(0, f"{line}\n{deep}\n{deep}", "")
    assert failure is None and parsed is not None and parsed.result == "FAKE REPLY 1"
    _, failure = classify(0, deep, "")
    assert failure is not None and failure.kind is FailureKind.USAGE  # said, not raised


def test_no_result_object_raises() -> None:
    with pytest.raises(ClaudeOutputError):
        parse_output('{"type": "assistant"}')


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Invalid API key · Please run /login", FailureKind.AUTH),
        ("Claude AI usage limit reached|1700000600", FailureKind.RATE_LIMITED),
        ("API Error: Connection error.", FailureKind.UNREACHABLE),
        ("API Error: Request timed out.", FailureKind.UNREACHABLE),
        ("something nobody has seen", FailureKind.SERVER),
    ],
)
def test_errors_without_a_status_are_known_by_their_message(
    message: str, kind: FailureKind
) -> None:
    stdout = json.dumps(
        {
            "type": "result",
            "subtype": "success",
            "is_error": True,
            "api_error_status": None,
            "result": message,
            "session_id": "s",
        }
    )
    _, failure = classify(1, stdout, "")
    assert failure.kind is kind


def test_subscription_limit_reset_becomes_retry_after() -> None:
    stdout = json.dumps(
        {"type": "result", "is_error": True, "result": "Claude AI usage limit reached|1700000600"}
    )
    _, failure = classify(1, stdout, "", now_epoch=1_700_000_000.0)
    assert failure.retry_after == pytest.approx(600.0)


@pytest.mark.parametrize("result", [None, "", "  \n"])
def test_exit_0_without_result_text_is_an_empty_failure_not_an_empty_turn(
    result: str | None,
) -> None:
    line = {"type": "result", "subtype": "success", "is_error": False, "session_id": "s"}
    if result is not None:
        line["result"] = result
    parsed, failure = classify(0, json.dumps(line), "")
    assert parsed is not None and failure is not None
    assert failure.kind is FailureKind.EMPTY and failure.kind.is_transient
    assert "no result text" in failure.detail


# Lines the real 2.1.332 printed against the fake Anthropic (tests/fakes: limit_headers,
# usage_limit, credits_required), trimmed to the fields read.
_LIMIT_EVENT = (
    '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1796197520,'
    '"rateLimitType":"five_hour","overageStatus":"rejected","isUsingOverage":false,'
    '"unifiedWindows":{"five_hour":{"utilization":1,"resetsAt":1796197520,"status":"rejected"}}}}'
)
_LIMIT_RESULT = (
    '{"type":"result","subtype":"success","is_error":true,"api_error_status":429,'
    '"api_error":"usage_limit_reached","result":"You\'ve hit your 5-hour limit · resets 7:45am"}'
)
_CREDITS = (
    '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","isUsingOverage":false}}\n'
    '{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"result":'
    '"API Error: Server is temporarily limiting requests (not your usage limit) · Your '
    'organization is out of usage credits."}'
)
_WARNING = (
    '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","resetsAt":1796197482,'
    '"rateLimitType":"five_hour","unifiedWindows":{"five_hour":{"utilization":0.85,'
    '"resetsAt":1796197482,"status":"allowed_warning"}}}}'
)


def test_credit_a_usage_limit_is_a_pause_until_its_reset() -> None:
    _, failure = classify(1, f"{_LIMIT_EVENT}\n{_LIMIT_RESULT}", "", 1796197520 - 600)
    assert failure is not None and failure.kind is FailureKind.LIMIT
    assert failure.retry_after == 600


def test_credit_a_refusal_without_a_reset_stops_the_seat() -> None:
    _, failure = classify(1, _CREDITS, "", 0.0)
    assert failure is not None and failure.kind is FailureKind.CREDITS
    api_key = '{"type":"result","is_error":true,"api_error_status":429,"result":"API Error: '
    api_key += 'Request rejected (429) · Your organization is out of usage credits."}'
    assert classify(1, api_key, "", 0.0)[1].kind is FailureKind.CREDITS  # type: ignore[union-attr]  # a failure (None fails the test)


def test_credit_the_window_of_a_warning_is_read() -> None:
    window = window_of(_WARNING + "\n")
    assert window == Window("allowed_warning", "five_hour", 0.85, 1796197482)
    not_logged_in = '{"type":"result","is_error":true,"api_error_status":null,'
    not_logged_in += '"result":"Not logged in · Please run /login"}'
    assert classify(1, not_logged_in, "", 0.0)[1].kind is FailureKind.AUTH  # type: ignore[union-attr]  # a failure (None fails the test)


@pytest.mark.parametrize(
    ("reset", "epoch"),
    [
        (1796197520, 1796197520),
        (1796197520123, 1796197520),  # milliseconds, as a header can carry it
        (253402300810, 0),  # past the calendar's end: no time anyone can wait for
        (-5, 0),
        (0, 0),
        ("soon", 0),
        (1e999, 0),  # JSON's 1e999 reads as infinity
    ],
)
def test_a_reset_time_is_read_in_seconds_within_the_calendar(reset: object, epoch: int) -> None:
    assert reset_epoch(reset) == epoch


def test_a_cost_or_count_that_is_no_finite_number_reads_as_nothing() -> None:
    line = '{"type":"result","is_error":false,"result":"ok","session_id":"s",'
    line += '"total_cost_usd":1e999,"num_turns":1e999,"usage":{"output_tokens":-1e999}}'
    parsed, failure = classify(0, line, "")
    assert failure is None and parsed is not None
    assert (parsed.total_cost_usd, parsed.num_turns, parsed.output_tokens) == (0.0, 0, 0)


def test_a_usage_limit_already_reset_is_a_limit_not_credits() -> None:
    """What the real CLI prints for a reset already past: no rate_limit_event, the reset only
    in the error message's `api_error_params` (recorded from 2.1.332 against the fake)."""
    said = {
        "type": "assistant",
        "is_api_error_message": True,
        "error": "rate_limit",
        "api_error_params": {"rate_limit_info": {"status": "rejected", "resetsAt": 1000}},
        "message": {"content": [{"type": "text", "text": "You've hit your 5-hour limit"}]},
    }
    stdout = f"{json.dumps(said)}\n{_LIMIT_RESULT}"
    _, failure = classify(1, stdout, "", 1600.0)
    assert failure is not None and failure.kind is FailureKind.LIMIT
    assert failure.retry_after == -600.0  # past: the engine waits its minimum, not credits
