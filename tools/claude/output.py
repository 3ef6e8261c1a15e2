"""The Claude Code CLI's result line (`--output-format stream-json`'s last, or `json`'s one),
parsed by key name (pure, no I/O).

Checked against 2.1.197 (recorded) and shaped after 2.1.332 per the notes: key order and extra
keys differ between versions, so nothing here depends on either.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from handlers.core.model import FailureKind
from handlers.core.shorten import shorten
from handlers.core.spending.limits import UNKNOWN_RESET_WAIT_S
from handlers.core.spending.state import Window
from handlers.ports import DebaterError

_NO_SESSION = re.compile(r"No conversation found|does not match any session", re.I)
# The CLI's words when a request is longer than the model's context window (2.1.332: its result
# reads "Prompt is too long · the request is ~N tokens (limit M) ...", with `terminal_reason`
# "prompt_too_long"; it says "Input is too long for requested model" for the API's other form).
_CONTEXT_FULL = re.compile(r"^Prompt is too long|input is too long for requested model", re.I)
_UNREACHABLE = re.compile(
    r"Unable to connect|Connection error|ConnectionRefused|ECONNREFUSED|ECONNRESET|ENOTFOUND|"
    r"EAI_AGAIN|fetch failed|socket hang up|timed? ?out",
    re.I,
)
_AUTH = re.compile(r"Not logged in|Invalid API key|/login|authenticat|OAuth token|credential", re.I)
_LIMIT = re.compile(r"usage limit|rate limit|hit your limit|limit reached|\b429\b", re.I)
_RESET_EPOCH = re.compile(r"limit reached\|(\d{9,13})")
_MILLISECONDS_FROM = 1e12  # a reset time this large is milliseconds (2001 in ms, 33658 in s)
_LAST_EPOCH = 253_402_214_400  # 9999-12-31: a later reset is no time anyone can wait for
_RETRY_SECONDS = re.compile(r"retry[- ]after[:= ]+(\d+(?:\.\d+)?)\s*s?", re.I)
# Refusals nothing clears by itself (usage credits are off or spent): the typed kinds of 2.1.332,
# and its words where a 429 carries no kind.
_CREDIT_ERRORS = frozenset({"model_requires_usage_credits", "long_context_credits_required"})
_CREDITS = re.compile(
    r"out of usage credits|usage credits aren.t available|credit balance too low|credits_required",
    re.I,
)
# The CLI's result when the model's answers never satisfied `--json-schema` (after
# MAX_STRUCTURED_OUTPUT_RETRIES attempts): not a failure of the turn, the format's own parser
# reads what the model sent instead.
SCHEMA_NOT_MET = "error_max_structured_output_retries"
# Lines naming an event's type parsed, last first, before the search gives up: stdout that is
# a million broken lines naming "result" cannot cost a failed parse each.
MAX_EVENT_LINES = 64
_MODEL_SUFFIX = re.compile(r"\[[^\]]*\]$")  # "claude-opus-4-8[1m]": the context-window tag
# Errors without an HTTP status, known by their message (checked in this order).
_TEXT_KINDS = (
    (_LIMIT, FailureKind.RATE_LIMITED),
    (_AUTH, FailureKind.AUTH),
    (_UNREACHABLE, FailureKind.UNREACHABLE),
)
# An error without a status or a known cause counts as passing, so the engine retries a bounded
# number of times instead of ending the debate on something unexplained.
_UNKNOWN = FailureKind.SERVER


class ClaudeOutputError(ValueError):
    """Stdout holds no result object."""


@dataclass(frozen=True)
class CliResult:
    """The fields of one result object that the debater uses."""

    subtype: str
    is_error: bool
    api_error_status: int | None
    result: str | None  # absent for error_max_turns
    session_id: str | None
    num_turns: int
    total_cost_usd: float
    input_tokens: int  # input + cache creation + cache reads: everything the model read
    output_tokens: int
    model: str  # the model that wrote most of the output ("" if none ran)
    permission_denials: tuple[str, ...]  # tool names, in order
    errors: tuple[str, ...]
    api_error: str = ""  # the typed kind of an API error ("usage_limit_reached", ...)
    terminal_reason: str = ""  # why the run ended ("completed", "prompt_too_long", ...)
    structured: str | None = None  # `--json-schema`'s validated output, as JSON text


def parse_output(stdout: str) -> CliResult:
    """The result object on stdout (the last JSON line of type "result")."""
    data = _result_object(stdout)
    usage: dict[str, Any] = data["usage"] if isinstance(data.get("usage"), dict) else {}
    tokens_in = sum(
        _int(usage.get(key))
        for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    )
    status = data.get("api_error_status")
    result = data.get("result")
    return CliResult(
        subtype=str(data.get("subtype") or ""),
        is_error=bool(data.get("is_error")),
        api_error_status=status if isinstance(status, int) else None,
        result=result if isinstance(result, str) else None,
        session_id=str(data["session_id"]) if data.get("session_id") else None,
        num_turns=_int(data.get("num_turns")),
        total_cost_usd=_float(data.get("total_cost_usd")),
        input_tokens=tokens_in,
        output_tokens=_int(usage.get("output_tokens")),
        model=_main_model(data.get("modelUsage")),
        permission_denials=_denials(data.get("permission_denials")),
        errors=tuple(str(e) for e in data.get("errors") or () if e),
        api_error=str(data.get("api_error") or ""),
        terminal_reason=str(data.get("terminal_reason") or ""),
        structured=_structured(data.get("structured_output"), result),
    )


def window_of(stdout: str) -> Window | None:
    """Claude's usage window as the run's last `rate_limit_event` reported it, else as its
    API error message carried it (the CLI sends no event for a reset already past)."""
    _, event = last_event(stdout, "rate_limit_event")
    info = event.get("rate_limit_info") if event else None
    if not isinstance(info, dict):
        _, said = last_event(stdout, "assistant")
        params = said.get("api_error_params") if said else None
        info = params.get("rate_limit_info") if isinstance(params, dict) else None
    return _window(info) if isinstance(info, dict) else None


def reset_epoch(value: object) -> int:
    """A reset time as epoch seconds, as the engine can use it: one given in milliseconds (as
    a header may carry it) in seconds; 0 (unknown) when absent, negative, not finite, or past
    the calendar's range."""
    number = _float(value)
    if number >= _MILLISECONDS_FROM:
        number /= 1000
    return int(number) if 0 < number <= _LAST_EPOCH else 0


def last_event(stdout: str, kind: str) -> tuple[str, dict[str, Any] | None]:
    """The last stdout line that is a JSON object of type `kind`, and that object.

    Lines end at a newline only: the CLI's JSON escapes it, but not U+2028 or NEL, which a
    reply may hold. Only a line holding `"kind"` is parsed, found by a search from the end,
    and at most MAX_EVENT_LINES of them (the CLI writes its result line last)."""
    token, end = f'"{kind}"', len(stdout)
    for _ in range(MAX_EVENT_LINES):
        at = stdout.rfind(token, 0, end)
        if at < 0:
            break
        end = stdout.rfind("\n", 0, at) + 1  # this line's start; the next search ends there
        stop = stdout.find("\n", at)
        line = stdout[end : len(stdout) if stop < 0 else stop].removesuffix("\r")
        try:
            data = json.loads(line)
        except (RecursionError, ValueError):  # not JSON, or nested deeper than it can be read
            continue
        if isinstance(data, dict) and data.get("type") == kind:
            return line, data
    return "", None


def _window(info: dict[str, Any]) -> Window:
    """The binding window: its own status and use where `unifiedWindows` has them."""
    kind = str(info.get("rateLimitType") or "")
    windows = info.get("unifiedWindows")
    own = windows.get(kind) if isinstance(windows, dict) else None
    own = own if isinstance(own, dict) else {}
    status = str(info.get("status") or "")
    if status == "allowed" and own.get("status") == "allowed_warning":
        status = "allowed_warning"  # the top level says allowed until the window is spent
    use = info.get("utilization", own.get("utilization"))
    return Window(
        status=status,
        kind=kind,
        utilization=_float(use) if isinstance(use, int | float) else None,
        resets_at=reset_epoch(info.get("resetsAt") or own.get("resetsAt")),
    )


def classify(
    exit_code: int, stdout: str, stderr: str, now_epoch: float | None = None
) -> tuple[CliResult | None, DebaterError | None]:
    """The parsed result and, if the call failed, why; exactly one of them may be None."""
    if not stdout or stdout.isspace():  # not strip(): that copies the whole stdout
        message = stderr.strip() or f"exit {exit_code} without output"
        kind = FailureKind.SESSION_MISSING if _NO_SESSION.search(stderr) else FailureKind.USAGE
        return None, DebaterError(kind, message)
    try:
        parsed = parse_output(stdout)
    except ClaudeOutputError as exc:
        return None, DebaterError(
            FailureKind.USAGE, f"{exc}: {shorten((stderr or stdout).strip(), 300)}"
        )
    if parsed.subtype == SCHEMA_NOT_MET:
        return parsed, None  # the debater reads its last attempt, or else all it wrote
    if not parsed.is_error and (exit_code == 0 or parsed.result is not None):
        if parsed.result is None or not parsed.result.strip():
            detail = f"exit {exit_code} with no result text ({parsed.subtype or 'no subtype'})"
            return parsed, DebaterError(FailureKind.EMPTY, detail)
        return parsed, None
    return parsed, _failure_of(parsed, stderr, now_epoch, window_of(stdout))


def _failure_of(
    parsed: CliResult, stderr: str, now_epoch: float | None, window: Window | None
) -> DebaterError:
    message = parsed.result or "; ".join(parsed.errors) or stderr.strip() or parsed.subtype
    limited = _limited(parsed, message, window, now_epoch)
    if limited is not None:
        return DebaterError(limited[0], message, limited[1])
    if parsed.terminal_reason == "prompt_too_long" or _CONTEXT_FULL.search(message.strip()):
        return DebaterError(FailureKind.CONTEXT_FULL, message)
    kind = _kind_of(parsed.subtype, parsed.api_error_status, message)
    retry_after = _retry_after(message, now_epoch) if kind is FailureKind.RATE_LIMITED else None
    if retry_after is not None and _RESET_EPOCH.search(message):
        return DebaterError(FailureKind.LIMIT, message, retry_after)  # an older CLI's usage limit
    return DebaterError(kind, message, retry_after)


def _limited(
    parsed: CliResult, message: str, window: Window | None, now_epoch: float | None
) -> tuple[FailureKind, float | None] | None:
    """A usage limit with the seconds until it resets (LIMIT), or a refusal nothing clears
    (CREDITS): keyed on the typed fields, the words only where none came."""
    if parsed.api_error in _CREDIT_ERRORS:
        return FailureKind.CREDITS, None
    limited = parsed.api_error == "usage_limit_reached"
    if not limited and parsed.api_error_status in (None, 429) and _CREDITS.search(message):
        return FailureKind.CREDITS, None
    if limited or (window is not None and window.status == "rejected"):
        # A limit, whatever its reset says: one already past is tried again shortly, one not
        # given (or out of range) after an hour, Resume sooner (the engine bounds the wait).
        if window is None or not window.resets_at:
            return FailureKind.LIMIT, UNKNOWN_RESET_WAIT_S
        return FailureKind.LIMIT, None if now_epoch is None else window.resets_at - now_epoch
    return None


def _kind_of(subtype: str, status: int | None, message: str) -> FailureKind:
    if subtype == "error_max_budget_usd":
        return FailureKind.BUDGET  # `--max-budget-usd`: what is left of the people's budget
    if subtype == "error_max_turns":
        return FailureKind.USAGE  # the same turn would stop at the same limit again
    if status is None and _NO_SESSION.search(message):
        return FailureKind.SESSION_MISSING  # stream-json says so in a result line's errors
    if status is None:
        return next((kind for pattern, kind in _TEXT_KINDS if pattern.search(message)), _UNKNOWN)
    if status == 429:
        return FailureKind.RATE_LIMITED
    if status in (401, 403):
        return FailureKind.AUTH
    if status >= 500 or status == 408:
        return FailureKind.SERVER
    return FailureKind.USAGE  # another 4xx: the request itself is wrong


def _retry_after(message: str, now_epoch: float | None) -> float | None:
    reset = _RESET_EPOCH.search(message)
    if reset and now_epoch is not None:
        epoch = reset_epoch(float(reset.group(1)))
        return max(0.0, epoch - now_epoch) if epoch else UNKNOWN_RESET_WAIT_S
    seconds = _RETRY_SECONDS.search(message)
    return float(seconds.group(1)) if seconds else None


def _result_object(stdout: str) -> dict[str, Any]:
    _, found = last_event(stdout, "result")
    if found is None:
        raise ClaudeOutputError("no result object on stdout")
    return found


def _structured(output: object, result: object) -> str | None:
    """The validated structured output as JSON text: the CLI's own `result` when it is that
    object's text (so the record is what the CLI printed), else the object serialised."""
    if not isinstance(output, dict):
        return None
    if isinstance(result, str):
        try:
            same = json.loads(result) == output
        except (RecursionError, ValueError):
            same = False
        if same:
            return result
    return json.dumps(output, ensure_ascii=False)


def _main_model(model_usage: object) -> str:
    if not isinstance(model_usage, dict) or not model_usage:
        return ""
    name = max(
        model_usage,
        key=lambda k: (
            _int(model_usage[k].get("outputTokens")) if isinstance(model_usage[k], dict) else 0
        ),
    )
    return _MODEL_SUFFIX.sub("", str(name))


def _denials(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    names = []
    for item in value:
        if isinstance(item, dict):
            names.append(str(item.get("tool_name") or item.get("name") or "?"))
        elif isinstance(item, str):
            names.append(item)
    return tuple(names)


def _int(value: object) -> int:
    """A count the CLI reported; 0 for anything that is not a finite number."""
    return int(_float(value))


def _float(value: object) -> float:
    """A figure the CLI reported (a cost, a time); 0.0 for anything not a finite number (a
    JSON `1e999` reads as infinity, which no stored state can hold)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return 0.0
    number = float(value)
    return number if math.isfinite(number) else 0.0
