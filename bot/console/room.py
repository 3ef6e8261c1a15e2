"""The engine's Room port in a terminal: the card, the turns, questions and the end, with rich.

Colours follow the Discord embeds: AG green, Claude blue, the moderator grey, the people's
decisions amber. Replies are printed whole with `soft_wrap`, so rich never cuts or re-wraps
them and what is on screen can be copied as it was written. Every post is keyed like the
Discord room's messages (`room_messages`), so a repeat after a crash prints nothing twice.
The card, the end and the poll are mixed in from room_card.py, room_end.py and room_poll.py.
"""

from __future__ import annotations

import contextlib
from types import TracebackType

from rich.console import Console
from rich.panel import Panel
from rich.status import Status
from rich.text import Text

from bot.console.room_card import ConsoleCardRoom
from bot.console.room_end import ConsoleEndRoom
from bot.console.room_poll import ConsolePollRoom
from bot.console.text import (
    MODERATOR_GREY,
    USER_AMBER,
    WARNING_ORANGE,
    author_line,
    footer_text,
    seat_colour,
    seat_name,
    status_line,
)
from bot.formatting import claim_lines, notice_params
from handlers.core.convergence import meter
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Turn, UserQuestion
from handlers.ports import Clock, Wiki
from tools.store.db import Database
from tools.store.room_messages import RoomMessages

_WARNING_KEYS = ("debater.", "wiki.refused", "wiki.delayed", "wiki.human_edit")
_AMBER_KEYS = ("user.", "debate.stopped_by")


class ConsoleRoom(ConsoleCardRoom, ConsolePollRoom, ConsoleEndRoom):
    """Prints debates to a rich Console; `human_seats` type at the keyboard, `names` name people."""

    def __init__(
        self,
        console: Console,
        strings: Strings,
        wiki: Wiki,
        clock: Clock,
        *,
        db: Database | None = None,
        human_seats: frozenset[str] = frozenset(),
        names: dict[int, str] | None = None,
        rules_only: bool = False,
    ) -> None:
        self.console = console
        self._t = strings
        self._wiki = wiki
        self._clock = clock
        self._messages = RoomMessages(db) if db is not None else None
        self._human = human_seats
        self._names = names if names is not None else {}
        # Without Gemini the rules moderate from the first turn: no "switched to rules" news.
        self._rules_only = rules_only
        self._posted: set[tuple[int, str]] = set()
        self._last_status: dict[int, str] = {}

    # ---- once-only posts ---------------------------------------------------------

    async def _first_time(self, debate_id: int, key: str) -> bool:
        """True (and remembered) the first time `key` is posted for the debate."""
        if (debate_id, key) in self._posted:
            return False
        if self._messages is not None and await self._messages.has(debate_id, key):
            self._posted.add((debate_id, key))
            return False
        return True

    async def _remember(self, debate_id: int, key: str) -> None:
        self._posted.add((debate_id, key))
        if self._messages is not None:
            await self._messages.add(debate_id, key)

    # ---- the Room port -----------------------------------------------------------

    async def open(self, debate: Debate) -> None:
        """The room's heading."""
        if not await self._first_time(debate.id, "open"):
            return
        title = self._t("console.room_title", topic=debate.proposal.topic)
        self.console.rule(Text(title, style="bold"), style=MODERATOR_GREY)
        self._line(self._t("console.room_keys"), MODERATOR_GREY)
        await self._remember(debate.id, "open")

    async def update_status(self, debate: Debate) -> None:
        """The status line, printed when it changes."""
        line = status_line(debate, self._t, self._clock.now(), rules_only=self._rules_only)
        if self._last_status.get(debate.id) == line:
            return
        self._last_status[debate.id] = line
        self.console.print(Text(f"⏱  {line}", style=f"dim {MODERATOR_GREY}"), soft_wrap=True)

    async def post_turn(self, debate: Debate, turn: Turn) -> str:
        """The whole reply in the seat's colour; the terminal has no link to return."""
        key = f"turn:{turn.number}"
        if not await self._first_time(debate.id, key):
            return ""
        colour = seat_colour(turn.seat, debate)
        self.console.rule(
            Text(author_line(turn, self._t, debate), style=f"bold {colour}"),
            style=colour,
            align="left",
        )
        # The opinion is the whole reply when no block was found, in characters a terminal
        # can print (a lone surrogate would make the print fail).
        self.console.print(Text(turn.parsed.opinion, style=colour), soft_wrap=True)
        if turn.parsed.extra:
            label = self._t("console.other_fields")
            self.console.print(Text(f"{label}\n{turn.parsed.extra}", style=colour), soft_wrap=True)
        question = turn.parsed.question
        if turn.parsed.structured and question is not None:
            label = (
                self._t("console.question_to_user")
                if question.to == "user"
                else self._t(
                    "console.question_to_opponent",
                    name=", ".join(
                        seat_name(self._t, p, debate) for p in debate.ids if p != turn.seat
                    ),
                )
            )
            self.console.print(
                Text(f"❓ {label}: {question.text}", style=f"bold {colour}"), soft_wrap=True
            )
        self.console.print(Text(footer_text(turn, self._t), style=f"dim {colour}"), soft_wrap=True)
        await self._remember(debate.id, key)
        return ""

    async def update_claims(self, debate: Debate) -> None:
        """The claim ledger as it stands, after the judgement that changed it."""
        body = Text("\n".join(line.replace("**", "") for line in claim_lines(debate, self._t)))
        title = Text(self._t("claims.console_title"))
        self.console.print(Panel(body, title=title, border_style=MODERATOR_GREY))

    async def ask_budget(self, debate: Debate) -> None:
        """A pause (the budget, or converging): d declares consensus, e one more round, c
        concludes (shown once per pause)."""
        key = f"pause:{debate.turns}"
        if not await self._first_time(debate.id, key):
            return
        area = "budget" if debate.paused == "budget" else "convergence"
        latest = debate.consensus_trend[-1] if debate.consensus_trend else 0.0
        values = {
            "rounds": debate.max_rounds,
            "percent": round(latest * 100),
            "bars": meter(debate.consensus_trend),
        }
        said = self._t(f"{area}.body", **values)
        self.console.print(
            Panel(
                Text(said, style="bold"),
                title=Text(self._t(f"{area}.title")),
                subtitle=Text(self._t(f"{area}.console_keys")),
                border_style=USER_AMBER,
            )
        )
        await self._remember(debate.id, key)

    async def ask_user(self, debate: Debate, question: UserQuestion) -> None:
        """The moderator's question in amber, options numbered for the keyboard."""
        key = f"ask:{debate.turns}"
        if not await self._first_time(debate.id, key):
            return
        body = Text(question.text, style="bold")
        for number, option in enumerate(question.options, start=1):
            body.append(f"\n  {number}. {option}")
        self.console.print(
            Panel(
                body,
                title=Text(self._t("console.question_title")),
                subtitle=Text(self._t("console.question_keys")),
                border_style=USER_AMBER,
            )
        )
        await self._remember(debate.id, key)

    async def notify(self, debate: Debate, key: str, params: dict[str, str]) -> None:
        """One localized line: warnings orange, the people's decisions amber, the rest grey."""
        if self._rules_only and key.startswith("moderator.mode_"):
            return
        params = notice_params(self._t, params)
        colour = MODERATOR_GREY
        if key.startswith(_WARNING_KEYS):
            colour = WARNING_ORANGE
        elif key.startswith(_AMBER_KEYS):
            colour = USER_AMBER
        self._line(self._t(key, **params), colour)

    def working(self, debate: Debate, seat: str) -> Working:
        """A line (and a spinner in a real terminal) while `seat` works on its turn."""
        return Working(self, seat, debate)

    # ---- helpers ---------------------------------------------------------------------

    def _line(self, text: str, colour: str, *, bold: bool = False) -> None:
        style = f"bold {colour}" if bold else colour
        self.console.print(Text(text, style=style), soft_wrap=True)

    def working_text(self, seat: str, debate: Debate | None = None) -> str:
        """`Claude is working on its turn…`."""
        return self._t("console.working", seat=seat_name(self._t, seat, debate))

    def typed_here(self, seat: str) -> bool:
        """True for a seat a person answers at this keyboard."""
        return seat in self._human


class Working:
    """Says who is working; spins in a real terminal until the turn ends."""

    def __init__(self, room: ConsoleRoom, seat: str, debate: Debate | None = None) -> None:
        self._room, self._seat, self._debate = room, seat, debate
        self._status: Status | None = None

    def show_text(self, text_so_far: str) -> None:
        """The terminal shows the whole reply once it is stored; the spinner says enough."""

    async def __aenter__(self) -> None:
        if self._room.typed_here(self._seat):
            return  # the person sees the request and types: no indicator needed
        text = self._room.working_text(self._seat, self._debate)
        if self._room.console.is_terminal:
            self._status = self._room.console.status(Text(text, style=MODERATOR_GREY))
            self._status.start()
        else:
            self._room.console.print(Text(f"⏳ {text}", style=MODERATOR_GREY), soft_wrap=True)

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._status is not None:
            with contextlib.suppress(Exception):  # a spinner that cannot stop is not a failure
                self._status.stop()
