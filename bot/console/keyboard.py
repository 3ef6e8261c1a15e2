"""Typed lines for the console: from the terminal or a script, and a human seat's reply.

One reader takes every line; while a person types a debater's reply (`--ag human`), the lines
go to that reply until a line holding only "." (or the end of input).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from typing import Protocol, TextIO

END_OF_REPLY = "."


class LineSource(Protocol):
    """Where typed lines come from; None means the end of input."""

    async def readline(self) -> str | None:
        """The next line without its newline, or None at the end."""
        ...


class StdinLines:
    """Lines of the terminal, read by a daemon thread so that quitting never waits for Enter."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdin
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._thread: threading.Thread | None = None

    async def readline(self) -> str | None:
        """The next typed line (the end of input stays the end)."""
        if self._thread is None:
            loop = asyncio.get_running_loop()
            self._thread = threading.Thread(
                target=self._pump, args=(loop,), name="console-stdin", daemon=True
            )
            self._thread.start()
        line = await self._queue.get()
        if line is None:
            self._queue.put_nowait(None)
        return line

    def _pump(self, loop: asyncio.AbstractEventLoop) -> None:
        put: Callable[[str | None], None] = self._queue.put_nowait
        try:
            for raw in self._stream:
                loop.call_soon_threadsafe(put, raw.rstrip("\r\n"))
        except (OSError, ValueError):  # the terminal went away: that is the end of input
            pass
        finally:
            if not loop.is_closed():
                loop.call_soon_threadsafe(put, None)


class Keyboard:
    """The one reader of typed lines; a human seat borrows the lines of its reply."""

    def __init__(self, source: LineSource) -> None:
        self._source = source
        self._reply: asyncio.Queue[str | None] | None = None
        self.composing = asyncio.Event()  # set while a person types a debater's reply
        self.ended = False

    async def next_line(self) -> str | None:
        """The next line that is not part of a reply being typed; None at the end of input."""
        while True:
            line = await self._source.readline()
            if line is None:
                self.ended = True
            if self._reply is not None:
                self._reply.put_nowait(line)
                if line is not None:
                    continue
            return line

    async def read_reply(self) -> str | None:
        """Lines up to one holding only "." (or the end of input); None if nothing came."""
        if self.ended:
            return None
        self._reply = asyncio.Queue()
        self.composing.set()
        lines: list[str] = []
        try:
            while (line := await self._reply.get()) is not None:
                if line.strip() == END_OF_REPLY:
                    break
                lines.append(line)
        finally:
            self._reply = None
            self.composing.clear()
        text = "\n".join(lines)
        return text if text.strip() else None
