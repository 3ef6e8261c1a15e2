"""Lossless splitting of long text into length-limited pieces, code fences kept balanced.

A piece is `reopen + body + closer`: the bodies, in order, are the text exactly. When a cut
falls inside a code fence, the piece gets the fence's marker appended (closing the block) and
the next piece starts with the fence's opening line (same info string) and a newline.
Whether a closer was added follows from the fence state of the text so far, so the pieces can
be joined back exactly (the tests' `join_pieces`, tests/bot/discord/pieces.py, does).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from handlers.core.fences import FENCE_LINE_START, step
from handlers.core.fences import Fence as _OpenFence

MIN_LIMIT = 128  # room for the longest reopen line and closer plus some text
MAX_OPENER_LINE = 64  # a longer opening line is reopened with its marker alone


class SplitError(ValueError):
    """The limit is too small (or pieces joined were not produced by `split_text`)."""


@dataclass(frozen=True)
class _Fence:
    """An open code fence: its backtick run and the line that reopens it."""

    marker: str
    reopen: str
    opened: _OpenFence


@dataclass
class _Scanner:
    """Fence state over complete lines; the unterminated last line waits in `partial`."""

    fence: _Fence | None = None
    partial: str = ""

    def feed(self, chunk: str) -> None:
        """Advance over `chunk`."""
        if "\n" not in chunk:
            self.partial += chunk
            return
        lines = (self.partial + chunk).split("\n")
        self.partial = lines.pop()
        for line in lines:
            self._line(line)

    def _line(self, line: str) -> None:
        opened = self.fence.opened if self.fence is not None else None
        after = step(opened, line)
        if after is None or after is opened:
            self.fence = None if after is None else self.fence
            return
        reopen = line if len(line) <= MAX_OPENER_LINE else after.indent + after.marker
        self.fence = _Fence(after.marker, reopen + "\n", after)


class FenceSplitter:
    """Cuts one text into pieces on demand, each within the limit given for it."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._pos = 0
        self._scanner = _Scanner()

    @property
    def done(self) -> bool:
        """True once every character has gone into a piece."""
        return self._pos >= len(self._text)

    def take(self, limit: int) -> str:
        """The next piece, at most `limit` characters with any fence closer and reopener."""
        if limit < MIN_LIMIT:
            raise SplitError(f"limit {limit} is below {MIN_LIMIT}")
        text, start = self._text, self._pos
        reopen = self._scanner.fence.reopen if self._scanner.fence else ""
        budget = limit - len(reopen)
        if len(text) - start <= budget:
            self._pos = len(text)
            return reopen + text[start:]
        room = budget
        while True:
            end = _cut_point(text, start, room)
            after = replace(self._scanner)  # the state so far, advanced alone
            after.feed(text[start:end])
            closer = after.fence.marker if after.fence else ""
            if end - start + len(closer) <= budget:
                break
            # Each pass cuts shorter, leaving room for the closer: MIN_LIMIT keeps it above 0.
            room = min(room - 1, budget - len(closer))
        self._pos, self._scanner = end, after
        return reopen + text[start:end] + closer


def split_text(text: str, limit: int = 4096) -> list[str]:
    """Cut `text` into pieces of at most `limit` characters, nothing lost."""
    splitter = FenceSplitter(text)
    pieces = []
    while not splitter.done:
        pieces.append(splitter.take(limit))
    return pieces


def _cut_point(text: str, start: int, room: int) -> int:
    """Where to end a piece: a paragraph, a line, else a space or the limit (mid-line)."""
    window = text[start : start + room]
    half = room // 2
    paragraph = window.rfind("\n\n")
    if paragraph >= half:
        return start + paragraph + 2
    line = window.rfind("\n")
    if line >= 0:
        return start + line + 1
    space = max(window.rfind(" "), window.rfind("\t"))
    return _mid_line(text, start, start + space + 1 if space >= half else start + room)


def _mid_line(text: str, start: int, cut: int) -> int:
    """Move a cut inside a line back so the next piece does not begin like a fence line."""
    while cut - start > 1 and FENCE_LINE_START.match(text, cut):
        cut -= 1
    return cut
