"""Typed lines for the console: from the terminal or a script, and a human seat's reply.

One reader takes every line; while a person types a debater's reply (`--ag human`), the lines
go to that reply until a line holding only "." (or the end of input). A line holding only a
console command that ends something (`s`, `/quit`) stays a command even then.

A script piped in (stdin not a terminal) is read as a person would type it: the next line is
taken only once the console waits for one (the card, a question, a human seat, or nothing
running), never all at once.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Protocol, TextIO

END_OF_REPLY = "."
STOP = frozenset({"s", "stop", "/stop", "중단"})
QUIT = frozenset({"/quit", "/q", "/exit"})
HELP = frozenset({"/help", "/h", "?"})
BREAK_REPLY = STOP | QUIT  # a line holding only one of these is never reply text


class LineSource(Protocol):
    """Where typed lines come from; None means the end of input."""

    async def readline(self) -> str | None:
        """The next line without its newline, or None at the end."""


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

    def __init__(self, source: LineSource, *, paced: bool = False) -> None:
        self._source = source
        self._reply: asyncio.Queue[str | None] | None = None
        self.composing = asyncio.Event()  # set while a person types a debater's reply
        self.starved = asyncio.Event()  # set when a seat wanted a reply after the input ended
        self.ended = False
        self.one_reply = asyncio.Lock()  # held by the seat whose reply is typed now
        self.paced = paced  # a script: read a line only when the console waits for one
        self._ready: Callable[[], Awaitable[None]] | None = None

    def pace_with(self, ready: Callable[[], Awaitable[None]]) -> None:
        """With `paced`, await `ready()` (the console waits for input) before each line."""
        self._ready = ready

    async def next_line(self) -> str | None:
        """The next line that is not part of a reply being typed; None at the end of input."""
        while True:
            if self.paced and self._reply is None and self._ready is not None:
                await self._ready()
            line = await self._source.readline()
            if line is None:
                self.ended = True
            reply = self._reply
            if reply is None:
                return line
            if line is not None and line.strip().lower() in BREAK_REPLY:
                self._detach()  # the seat's turn ends with the stop (or the quit)
                return line
            reply.put_nowait(line)
            if line is None or line.strip() == END_OF_REPLY:
                # The reply is whole: later lines are the console's again, at once (a script
                # must not feed the next line before the engine has taken this reply).
                self._detach()
            if line is None:
                return None

    def _detach(self) -> None:
        """Nothing more goes to the reply being typed."""
        self._reply = None
        self.composing.clear()

    async def read_reply(self) -> str | None:
        """Lines up to one holding only "." (or the end of input); None if nothing came."""
        if self.ended:
            self.starved.set()
            return None
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._reply = queue
        self.composing.set()
        lines: list[str] = []
        try:
            while (line := await queue.get()) is not None:
                if line.strip() == END_OF_REPLY:
                    break
                lines.append(line)
        finally:
            if self._reply is queue:  # cancelled mid-reply (a Stop): detach it here
                self._detach()
        text = "\n".join(lines)
        if not text.strip() and self.ended:
            self.starved.set()
        return text if text.strip() else None
