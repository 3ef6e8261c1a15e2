"""A turn in the terminal: the whole reply in the seat's colour, printed with `soft_wrap` so
rich never cuts or re-wraps it and what is on screen can be copied as it was written; and
who is working while a turn runs."""

from __future__ import annotations

import contextlib
from types import TracebackType

from rich.status import Status
from rich.text import Text

from bot.console.room.out import MODERATOR_GREY, ConsoleOut
from bot.formatting import (
    author_line,
    footer_text,
    hex_colour,
    question_label,
    seat_colour,
    seat_name,
)
from handlers.core.model import Debate, Turn


def post_turn(out: ConsoleOut, debate: Debate, turn: Turn) -> None:
    """The whole reply in the seat's colour."""
    colour, t = hex_colour(seat_colour(turn.seat, debate)), out.t
    heading = Text(author_line(turn, t, debate, "console"), style=f"bold {colour}")
    out.console.rule(heading, style=colour, align="left")
    # The opinion is the whole reply when no block was found, in characters a terminal
    # can print (a lone surrogate would make the print fail).
    out.line(turn.parsed.opinion, colour)
    if turn.parsed.extra:
        out.line(f"{t('console.other_fields')}\n{turn.parsed.extra}", colour)
    question = turn.parsed.question
    if turn.parsed.structured and question is not None:
        label = question_label(turn, t, debate, "console")
        out.line(f"❓ {label}: {question.text}", colour, bold=True)
    out.line(footer_text(turn, t), f"dim {colour}")


class Working:
    """Says who is working; spins in a real terminal until the turn ends."""

    def __init__(self, out: ConsoleOut, seat: str, debate: Debate, typed_here: bool) -> None:
        self._out, self._seat, self._debate = out, seat, debate
        self._typed_here = typed_here
        self._status: Status | None = None

    def show_text(self, text_so_far: str) -> None:
        """The terminal shows the whole reply once it is stored; the spinner says enough."""

    async def __aenter__(self) -> None:
        if self._typed_here:
            return  # the person sees the request and types: no indicator needed
        seat = seat_name(self._out.t, self._seat, self._debate, "console")
        text = self._out.t("console.working", seat=seat)
        console = self._out.console
        if console.is_terminal:
            self._status = console.status(Text(text, style=MODERATOR_GREY))
            self._status.start()
        else:
            console.print(Text(f"⏳ {text}", style=MODERATOR_GREY), soft_wrap=True)

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._status is not None:
            with contextlib.suppress(Exception):  # a spinner that cannot stop is not a failure
                self._status.stop()
