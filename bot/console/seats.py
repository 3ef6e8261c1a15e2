"""Who is who at the console: the people typing chat, and a debater seat typed by a person."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from bot.console.keyboard import Keyboard
from bot.console.text import seat_colour, seat_name
from handlers.core.i18n import Strings
from handlers.core.model import Actor, Backend, TurnMeta
from handlers.ports import DebaterOutput, TurnRequest


@dataclass
class People:
    """The names typed in the console, each with a stable id; the operator is the first."""

    operator: str
    ids: dict[str, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.id_of(self.operator)

    def id_of(self, name: str) -> int:
        """The id of a person, given on first sight."""
        if name not in self.ids:
            self.ids[name] = len(self.ids) + 1
            self.names[self.ids[name]] = name
        return self.ids[name]

    def actor_named(self, name: str) -> Actor:
        """A person of the chat acting on a debate (authorized as a participant)."""
        return Actor(user_id=self.id_of(name), name=name)

    @property
    def actor(self) -> Actor:
        """The person at the keyboard: they own the terminal, so they may press every key."""
        return Actor(user_id=self.ids[self.operator], name=self.operator, is_approver=True)


class HumanDebater:
    """A debater seat typed at the keyboard: the prompt is shown, the reply ends with '.'."""

    def __init__(self, seat: str, keyboard: Keyboard, console: Console, strings: Strings) -> None:
        self.seat = seat  # the participant typed here
        self.backend = Backend.AG_RELAY if seat == "ag" else Backend.CLAUDE_CLI
        self._keyboard = keyboard
        self._console = console
        self._t = strings

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Show what the seat is asked, then take the typed reply."""
        colour = seat_colour(self.seat)
        name = seat_name(self._t, self.seat)
        self._console.rule(
            Text(self._t("console.human_turn", seat=name), style=f"bold {colour}"),
            style=colour,
            align="left",
        )
        self._console.print(Text(request.prompt, style=f"dim {colour}"), soft_wrap=True)
        self._console.print(Text(self._t("console.human_keys"), style=f"bold {colour}"))
        started = time.monotonic()
        text = await self._keyboard.read_reply()
        if text is None and self._keyboard.ended:
            # The input ended before a reply: the console stops the debate, which ends this
            # turn (cancelled); nothing is made up for the seat meanwhile.
            await asyncio.Event().wait()
        if text is None:  # a lone "." passes the turn: said so, as the seat's reply
            text = self._t("console.human_pass_text")
        meta = TurnMeta(model=self._t("console.human_model"), latency_s=time.monotonic() - started)
        return DebaterOutput(text=text, raw=text, meta=meta)

    async def forget(self, debate_id: int) -> None:
        """A person keeps no session."""
