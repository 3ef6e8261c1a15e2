"""Who is who at the console: the people typing chat, and a debater seat typed by a person."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from bot.console.keyboard import Keyboard
from bot.formatting import hex_colour, seat_colour, seat_name
from handlers.core.i18n import Strings
from handlers.core.model import Actor, Backend, TurnMeta
from handlers.ports import Debater, DebaterOutput, TurnRequest


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


@dataclass(frozen=True)
class Typed:
    """Which seats a person types at the keyboard: some by id, or every seat of a backend."""

    ids: frozenset[str] = frozenset()
    backends: frozenset[Backend] = frozenset()

    def __call__(self, seat: str, backend: Backend) -> bool:
        """True when a person types `seat` (carried by `backend`)."""
        return seat in self.ids or backend in self.backends


class HumanDebater:
    """A backend's seats: the typed ones are asked at the keyboard as a person (one at a time:
    the keyboard takes one reply), the others by the backend's `machine`."""

    def __init__(
        self,
        backend: Backend,
        typed: Typed,
        keyboard: Keyboard,
        console: Console,
        strings: Strings,
        machine: Debater | None = None,
    ) -> None:
        self.backend, self.typed, self.machine = backend, typed, machine
        self._keyboard = keyboard
        self._console = console
        self._t = strings

    def typed_by_person(self, seat: str) -> bool:
        """True when the person at the keyboard types `seat` (no machine answers it)."""
        return self.machine is None or self.typed(seat, self.backend)

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """A typed seat's reply from the keyboard; another seat's from the machine."""
        if self.machine is not None and not self.typed(request.participant, self.backend):
            return await self.machine.speak(request)
        async with self._keyboard.one_reply:
            return await self._typed(request)

    async def _typed(self, request: TurnRequest) -> DebaterOutput:
        """Show what the seat is asked, worded for a person, then take the typed reply."""
        seat = request.participant
        colour = hex_colour(seat_colour(seat))
        name = request.name or seat_name(self._t, seat, area="console")
        self._console.rule(
            Text(self._t("console.human_turn", seat=name), style=f"bold {colour}"),
            style=colour,
            align="left",
        )
        self._console.print(Text(request.person_prompt(), style=f"dim {colour}"), soft_wrap=True)
        self._console.print(Text(self._t("console.human_keys"), style=f"bold {colour}"))
        started = time.monotonic()
        text = await self._keyboard.read_reply()
        if text is None and self._keyboard.ended:
            # The input ended before a reply: the console stops the debate, which ends this
            # turn (cancelled); nothing is made up for the seat meanwhile.
            await asyncio.Event().wait()
        if text is None:  # a lone "." passes the turn: said so, as the seat's reply
            text = self._t("console.human_pass_text")
        took = time.monotonic() - started
        meta = TurnMeta(model=self._t("console.human_model"), latency_s=took, person=True)
        return DebaterOutput(text=text, raw=text, meta=meta)

    async def forget(self, debate_id: int) -> None:
        """A person keeps no session; the machine may."""
        if self.machine is not None:
            await self.machine.forget(debate_id)
