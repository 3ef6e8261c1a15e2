"""The one reading of Markdown code fences (```), shared by the parser, the splitter and the wiki.

Pure: no I/O. A fence opens on a line of at most three spaces, then a run of 3 to 16 backticks
and an info string without backticks; it closes on a line of at most three spaces and a run of
at least as many backticks, nothing else but white space. Every function runs in linear time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

FENCE_LINE_START = re.compile(r" {0,3}```")  # a line beginning like this may be a fence
_OPENER = re.compile(r"( {0,3})(`{3,16})([^`\n]*)")
_CLOSER = re.compile(r" {0,3}(`{3,})[ \t\r]*")
# The opening line read backwards: newline, info, backticks, indent, then a line start.
_OPENER_LINE_REVERSED = re.compile(r"\n([^`\n]*)`{3,16} {0,3}(?=\n|\Z)")
_BACKTICKS = re.compile(r"`+")
_CLOSING_AFTER = re.compile(r"[ \t\r]*\n? {0,3}`{3,}[ \t\r]*(?:\n|$)")
_JSON_INFO = frozenset({"", "json"})


@dataclass(frozen=True)
class Fence:
    """An open code fence: its backtick run and the line that opened it."""

    marker: str
    line: str
    indent: str = ""


@dataclass(frozen=True)
class Opening:
    """Where a fence's opening line starts, where its body starts, and its info string."""

    start: int
    body: int
    info: str


def opener(line: str) -> Fence | None:
    """The fence `line` opens, if it is an opening line (without its newline)."""
    match = _OPENER.fullmatch(line)
    return Fence(match.group(2), line, match.group(1)) if match else None


def closes(line: str, fence: Fence) -> bool:
    """Whether `line` (without its newline) closes `fence`."""
    match = _CLOSER.fullmatch(line)
    return match is not None and len(match.group(1)) >= len(fence.marker)


def step(fence: Fence | None, line: str) -> Fence | None:
    """The open fence after one more complete line."""
    if fence is None:
        return opener(line)
    return None if closes(line, fence) else fence


def open_fence(text: str) -> Fence | None:
    """The fence still open at the end of `text` (its last line counts even without a newline)."""
    fence: Fence | None = None
    for line in text.split("\n"):
        fence = step(fence, line)
    return fence


def json_openings_last_first(text: str) -> Iterator[Opening]:
    """The opening lines of fences marked `json` or unmarked, last first, found lazily (the
    text is searched backwards, so taking a few costs no scan of every earlier line)."""
    size = len(text)
    for match in _OPENER_LINE_REVERSED.finditer(text[::-1]):
        info = match.group(1)[::-1].strip().lower()
        if info in _JSON_INFO:
            yield Opening(size - match.end(), size - match.start(), info)


def closing_after(text: str, pos: int) -> int | None:
    """The end of a closing fence line that follows `pos` after only white space, if any."""
    match = _CLOSING_AFTER.match(text, pos)
    return match.end() if match else None


def sole_fence_body(text: str) -> str | None:
    """The body when `text` is exactly one fenced block (white space around allowed)."""
    stripped = text.strip()
    first, newline, rest = stripped.partition("\n")
    fence = opener(first)
    if fence is None or not newline or fence.line.strip("` \t").lower() not in _JSON_INFO:
        return None
    body, _, last = rest.rpartition("\n")
    if not closes(last, fence):
        return None
    return body


def longest_backtick_run(text: str) -> int:
    """The longest run of backticks in `text` (a longer fence cannot be closed by it)."""
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)
