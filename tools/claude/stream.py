"""The Claude Code CLI's `--output-format stream-json` lines, read for progress (pure, no I/O).

Only the text deltas of the main conversation (`parent_tool_use_id` null) are the reply being
written; a tool's sub-conversation and every other line are skipped. The stream only shows
progress: the final `result` line is the record, parsed by `claude_output` as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tools.claude.output import last_event

STRUCTURED_TOOL = "StructuredOutput"  # the tool through which `--json-schema` is answered


class TextSoFar:
    """Accumulates the main conversation's streamed text, one stdout line at a time."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._new_message = False

    @property
    def text(self) -> str:
        """Everything streamed so far (joined once, however often it is read)."""
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def feed(self, line: str) -> bool:
        """Take one stdout line; True if it added text."""
        event = _main_event(line)
        if event is None:
            return False
        kind = event.get("type")
        if kind == "message_start":
            self._new_message = bool(self._parts)  # a later message (after a tool) starts
            return False
        if kind != "content_block_delta":
            return False
        delta = event.get("delta")
        if not isinstance(delta, dict) or delta.get("type") != "text_delta":
            return False
        text = delta.get("text")
        if not isinstance(text, str) or not text:
            return False
        if self._new_message:
            self._parts.append("\n\n")
            self._new_message = False
        self._parts.append(text)
        return True


def progress(show: Callable[[str], None]) -> Callable[[list[str]], None]:
    """What reads the stream as `run_cli` hands its lines over: it shows the text so far once
    after each hand-over that added some, so a burst of deltas costs one join, not one each."""
    streamed = TextSoFar()

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


def reply_text(result: str | None, structured: str | None, stdout: str, *, schema: bool) -> str:
    """The reply as the turn records it, every character the model wrote kept:
    - structured output (`structured`, the CLI's validated JSON text): that JSON, in a fenced
      block under whatever the model wrote before calling for it;
    - a schema asked but not satisfied, or a call the dollar cap stopped (no `result`):
      all it wrote, every message (the format's own parser reads it);
    - else the CLI's `result`, the final message."""
    if structured is None and (schema or result is None):
        structured = last_structured_attempt(stdout)  # what it sent before the CLI stopped
        if structured is None:
            return streamed_text(stdout) or (result or "")
    if structured is not None:
        before = streamed_text(stdout).strip()
        return f"{before}\n\n```json\n{structured}\n```" if before else structured
    return result or ""


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
