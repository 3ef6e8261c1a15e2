"""The Claude Code CLI's `--output-format stream-json` lines, read for progress (pure, no I/O).

Only the main conversation (`parent_tool_use_id` null) is the reply being written: its text
deltas, and, when the reply is asked in a shape (`--json-schema`), the words fields of the
StructuredOutput call's input as its partial JSON arrives (`input_json_delta`); a tool's
sub-conversation and every other line are skipped. The stream only shows progress: the final
`result` line is the record, parsed by `claude_output` as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from handlers.core.reply.schema import text_only
from tools.claude.output import last_event
from tools.claude.partial import PartialFields

STRUCTURED_TOOL = "StructuredOutput"  # the tool through which `--json-schema` is answered


class TextSoFar:
    """Accumulates the main conversation's streamed text, one stdout line at a time; given
    the words fields of a reply's schema, also their values in its StructuredOutput call."""

    def __init__(self, words: tuple[str, ...] = ()) -> None:
        self._parts: list[str] = []
        self._new_message = False
        self._words = words
        self._shaped: PartialFields | None = None  # the latest StructuredOutput call's input
        self._shaped_block: object = None  # its content block's index in its message

    @property
    def text(self) -> str:
        """Everything streamed so far (joined once, however often it is read): the text, then
        the latest shaped answer's words."""
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        text = self._parts[0] if self._parts else ""
        shaped = self._shaped.text() if self._shaped is not None else ""
        return f"{text.strip()}\n\n{shaped}" if text.strip() and shaped else text or shaped

    def feed(self, line: str) -> bool:
        """Take one stdout line; True if it added text."""
        event = _main_event(line)
        if event is None:
            return False
        kind = event.get("type")
        if kind == "message_start":
            self._new_message = bool(self._parts)  # a later message (after a tool) starts
            self._shaped_block = None
            return False
        if kind == "content_block_start":
            self._start_block(event)
            return False
        if kind != "content_block_delta":
            return False
        delta = event.get("delta")
        if not isinstance(delta, dict):
            return False
        if delta.get("type") == "input_json_delta":
            return self._shaped_delta(event.get("index"), delta.get("partial_json"))
        if delta.get("type") != "text_delta":
            return False
        text = delta.get("text")
        if not isinstance(text, str) or not text:
            return False
        if self._new_message:
            self._parts.append("\n\n")
            self._new_message = False
        self._parts.append(text)
        return True

    def _start_block(self, event: dict[str, Any]) -> None:
        """A StructuredOutput call begins: a new attempt, shown instead of an earlier one."""
        block = event.get("content_block")
        if not self._words or not isinstance(block, dict) or block.get("type") != "tool_use":
            return
        if block.get("name") == STRUCTURED_TOOL:
            self._shaped, self._shaped_block = PartialFields(self._words), event.get("index")

    def _shaped_delta(self, index: object, partial: object) -> bool:
        if self._shaped is None or index != self._shaped_block or not isinstance(partial, str):
            return False  # another tool's input, or no words asked for
        return self._shaped.feed(partial)


def progress(
    show: Callable[[str], None], words: tuple[str, ...] = ()
) -> Callable[[list[str]], None]:
    """What reads the stream as `run_cli` hands its lines over: it shows the text so far once
    after each hand-over that added some, so a burst of deltas costs one join, not one each.
    `words`: the schema's words fields, shown from a StructuredOutput call as they arrive."""
    streamed = TextSoFar(words)

    def on_lines(lines: list[str]) -> None:
        added = [streamed.feed(line) for line in lines]  # every line, even after one that adds
        if any(added):
            show(streamed.text)

    return on_lines


def streamed_text(stdout: str) -> str:
    """Everything the main conversation wrote as text, over all its messages."""
    streamed = TextSoFar()
    for line in stdout.splitlines():
        streamed.feed(line)
    return streamed.text


def reply_text(
    result: str | None, structured: str | None, stdout: str, *, schema: bool | str
) -> str:
    """The reply as the turn records it, every character the model wrote kept:
    - structured output (`structured`, the CLI's validated JSON text): that JSON, in a fenced
      block under whatever the model wrote before calling for it; for a schema that only wraps
      a text contract (`text_only`), that text as written;
    - a schema asked but not satisfied (the CLI gave up, or the model never called for it), or
      a call the dollar cap stopped (no `result`): its last attempt, or else all it wrote,
      every message (the format's own parser reads it);
    - else the CLI's `result`, the final message."""
    if structured is None and (schema or result is None):
        structured = last_structured_attempt(stdout)  # what it sent before the CLI stopped
        if structured is None:
            return streamed_text(stdout) or (result or "")
    if structured is not None:
        before = streamed_text(stdout).strip()
        wrapped = _wrapped_text(structured, schema if isinstance(schema, str) else "")
        if wrapped is not None:
            return f"{before}\n\n{wrapped}" if before else wrapped
        return f"{before}\n\n```json\n{structured}\n```" if before else structured
    return result or ""


def _wrapped_text(structured: str, schema: str) -> str | None:
    """The text a text-only schema's answer wraps (None: another schema, or no such text)."""
    field = text_only(schema)
    if not field:
        return None
    try:
        answer = json.loads(structured)
    except (RecursionError, ValueError):
        return None
    said = answer.get(field) if isinstance(answer, dict) else None
    return said if isinstance(said, str) and len(answer) == 1 else None


def last_structured_attempt(stdout: str) -> str | None:
    """The input of the main conversation's last StructuredOutput call, as JSON text (None:
    none): the model's answer when the CLI stopped before taking it (the dollar cap), or
    one that did not fit the schema."""
    _, said = last_event(stdout, "assistant")
    message = said.get("message") if said and said.get("parent_tool_use_id") is None else None
    content = message.get("content") if isinstance(message, dict) else None
    calls = [
        block.get("input")
        for block in (content if isinstance(content, list) else [])
        if isinstance(block, dict)
        and block.get("type") == "tool_use"
        and block.get("name") == STRUCTURED_TOOL
    ]
    return json.dumps(calls[-1], ensure_ascii=False) if calls else None


def result_line(stdout: str) -> str:
    """The stream's last `result` line (the record), or the whole stdout if it has none."""
    return last_event(stdout, "result")[0] or stdout


def _main_event(line: str) -> dict[str, Any] | None:
    """The API event a `stream_event` line of the main conversation carries."""
    if '"stream_event"' not in line:  # most lines are not; skip parsing them
        return None
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "stream_event":
        return None
    if data.get("parent_tool_use_id") is not None:
        return None
    event = data.get("event")
    return event if isinstance(event, dict) else None
