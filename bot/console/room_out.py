"""What every part of the console room prints with: the console, the words, and what was
printed already. Every post is keyed like the Discord room's messages (`room_messages`), so
a repeat after a crash prints nothing twice."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from handlers.core.i18n import Strings
from tools.store.db import Database
from tools.store.room_messages import RoomMessages


class ConsoleOut:
    """Prints lines, and each keyed post once (noted in `room_messages` when given a db)."""

    def __init__(self, console: Console, strings: Strings, db: Database | None) -> None:
        self.console = console
        self.t = strings
        self._messages = RoomMessages(db) if db is not None else None
        self._posted: set[tuple[int, str]] = set()

    async def first_time(self, debate_id: int, key: str) -> bool:
        """True the first time `key` is posted for the debate (`remember` it once shown)."""
        if (debate_id, key) in self._posted:
            return False
        if self._messages is not None and await self._messages.has(debate_id, key):
            self._posted.add((debate_id, key))
            return False
        return True

    async def remember(self, debate_id: int, key: str) -> None:
        """`key` was posted for the debate."""
        self._posted.add((debate_id, key))
        if self._messages is not None:
            await self._messages.add(debate_id, key)

    def panel(self, body: Text, title: str, colour: str, subtitle: str = "") -> None:
        """A framed block: `title` and `subtitle` are locale keys."""
        below = Text(self.t(subtitle)) if subtitle else None
        self.console.print(
            Panel(body, title=Text(self.t(title)), subtitle=below, border_style=colour)
        )

    def line(self, text: str, colour: str, *, bold: bool = False) -> None:
        """One line in full, in `colour`."""
        style = f"bold {colour}" if bold else colour
        self.console.print(Text(text, style=style), soft_wrap=True)
