"""The hostile texts bench/parse.py gives its readers, and the inputs built from them (a CLI's
stdout, its stream as run_cli hands it over). Imported and run by parse.py's smoke run."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields, is_dataclass

MB = 1_000_000
BLOCK = '\n```json\n{"opinion": "끝", "stance": "agree", "question": "왜?"}\n```\n'
DELTA_CHARS = 32  # a streamed text delta: a few tokens, as the Claude CLI sends them
READ_BYTES = 1 << 16  # what tools.cli_process.run_cli reads of stdout at a time


def size_of(value: object) -> int:
    """The UTF-8 size, in bytes, of the text a reader is given (lone surrogates as 3 bytes)."""
    if isinstance(value, str):
        return len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, tuple | list):
        return sum(size_of(item) for item in value)
    if is_dataclass(value):
        return sum(size_of(getattr(value, f.name)) for f in fields(value))
    return 0


def _fill(unit: str, size: int) -> str:
    return unit * max(1, size // size_of(unit))


def _lines(make: Callable[[int], str], size: int) -> str:
    """Distinct numbered lines (`make(i)`) up to `size` bytes."""
    out: list[str] = []
    total, i = 0, 0
    while total < size:
        out.append(make(i))
        total += len(out[-1]) + 1
        i += 1
    return "\n".join(out)


SHAPES: dict[str, Callable[[int], str]] = {
    "normal reply": lambda n: _fill("논거를 정리합니다. 운영 부담이 핵심입니다.\n\n", n) + BLOCK,
    "lone surrogates": lambda n: _fill("\ud800", n) + BLOCK,
    "NUL characters": lambda n: _fill("\x00", n) + BLOCK,
    "surrogates, NUL in a block": lambda n: '{"opinion": "' + _fill("\ud800\x00a", n) + '"}',
    "escaped surrogates in a block": lambda n: '{"opinion": "' + _fill("\\udc80", n) + '"}',
    "deep nesting, fenced": lambda n: "```json\n" + _fill('{"opinion": ', n) + "\n```",
    "deep nesting, closed": lambda n: _fill('{"a": [', n // 2) + "1" + _fill("]}", n // 3),
    "deep brackets": lambda n: _fill("[", n // 2) + _fill("]", n // 2),
    '`{"` flood': lambda n: _fill('{"', n),
    '`{"opinion": {"` flood': lambda n: _fill('{"opinion": {"', n),
    "flood, then a block": lambda n: _fill('{"opinion": ["', n) + BLOCK,
    "unterminated strings": lambda n: _fill('{"opinion": "a', n),
    "fence flood": lambda n: _fill('```json\n{"opinion":\n', n),
    "`{` lines": lambda n: _fill("{\n", n),
    "result lines": lambda n: _fill('{"type": "result", "result": [\n', n),
    "space run mid-line": lambda n: "[THESIS] a" + " " * n + "b" + BLOCK,
    "one long line": lambda n: _fill("가나다 ", n) + BLOCK,
    "huge valid block": lambda n: json.dumps({"opinion": "x" * n, "stance": "agree"}),
    "numbered flood": lambda n: _fill("1. a\n2. b\n3. c\n", n),
    "blank lines": lambda n: "1. VOTE: YES\n" + "\n" * n + "2. x",
    "space-only lines": lambda n: _fill("   \n", n),
    "numbers mid-line": lambda n: _fill("a1.b2)c3.", n),
    "quoted votes": lambda n: _fill('{"vote": "no"} ', n) + "\n1. VOTE: YES",
    "padded evidence lines": lambda n: _fill("- E1 |" + " " * 3990 + "x |    nope\n", n),
    "pipes flood": lambda n: _fill("E2 | a |", n),
    "prefix flood": lambda n: _fill("[EVIDENCE] E1 a\n", n),
    "evidence points, cited": lambda n: "[EVIDENCE]\n" + _lines(lambda i: f"{i}. p{i} E{i}", n),
    "evidence points, uncited": lambda n: "[EVIDENCE]\n" + _lines(lambda i: f"- p{i:07d}", n),
    "one point, many lines": lambda n: "[EVIDENCE]\n1. a\n" + _fill("more E1\n", n),
    "ids flood": lambda n: "[EVIDENCE]\n- " + _fill("E1 E22 E333 ", n),
    "rulings and grounding": lambda n: (
        "[POINT-BY-POINT]\n"
        + _lines(lambda i: f"P{i}: Advocate — E{i % 999} holds", n // 2)
        + "\n[GROUNDING]\n"
        + _lines(lambda i: f"- P{i}: grounded", n // 2)
    ),
}


def stream_lines(text: str) -> list[str]:
    """The Claude CLI's stream-json lines carrying `text` as text deltas."""
    head = '{"type":"stream_event","parent_tool_use_id":null,"event":'
    pieces = (text[i : i + DELTA_CHARS] for i in range(0, len(text), DELTA_CHARS))
    delta = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%s}}}'
    return [head + delta % json.dumps(piece) for piece in pieces]


def claude_stdout(text: str) -> str:
    """A run's stdout: the stream, the assistant's message, and the result line with the reply."""
    message = {"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}}
    result = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": text,
        "session_id": "s",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    lines = [*stream_lines(text), json.dumps(message), json.dumps(result)]
    return "\n".join(lines) + "\n"


def stream_reads(text: str) -> list[list[str]]:
    """The stream's lines as `run_cli` hands them over: those of one read together."""
    reads: list[list[str]] = [[]]
    size = 0
    for line in stream_lines(text):
        reads[-1].append(line + "\n")
        size += len(line) + 1
        if size >= READ_BYTES:
            reads.append([])
            size = 0
    return reads


def gemini_stdout(text: str) -> str:
    """Log lines (the shape itself), then the CLI's JSON with the reply."""
    return text + "\n" + json.dumps({"response": text, "stats": {"models": {}}}, indent=2)
