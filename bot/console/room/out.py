"""What every part of the console room prints with: the console, the words and the colours."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from bot import formatting
from bot.formatting import hex_colour
from handlers.core.i18n import Strings

# The Discord embeds' colours, so a debate reads the same in both places.
MODERATOR_GREY = hex_colour(formatting.MODERATOR_GREY)
USER_AMBER = hex_colour(formatting.USER_AMBER)
WARNING_ORANGE = hex_colour(formatting.WARNING_ORANGE)


class ConsoleOut:
    """Prints framed blocks and whole lines, in the locale's words."""

    def __init__(self, console: Console, strings: Strings) -> None:
        self.console = console
        self.t = strings

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
