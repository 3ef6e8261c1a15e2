"""The people's poll's part of the Room port in the terminal (issue 18, feature 2). The
console runs no poll (a terminal has no one to vote; the session sets POLL_HOURS off), so a
stalemate there pauses as before; the report is still shown if one is written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from bot.console.text import MODERATOR_GREY
from handlers.core.i18n import Strings
from handlers.core.minority import report_markdown
from handlers.core.model import Debate


class ConsolePollRoom:
    """Mixed into ConsoleRoom, which supplies the console, the strings and the records."""

    console: Console
    _t: Strings

    if TYPE_CHECKING:

        async def _first_time(self, debate_id: int, key: str) -> bool: ...

        async def _remember(self, debate_id: int, key: str) -> None: ...

    async def post_minority_report(self, debate: Debate) -> None:
        """Each side's strongest case, once."""
        poll = debate.poll
        if poll is None or poll.report is None or not await self._first_time(debate.id, "poll"):
            return
        body = Text(report_markdown(debate, poll.report, self._t).replace("**", ""))
        title = Text(self._t("poll.console_report"))
        self.console.print(Panel(body, title=title, border_style=MODERATOR_GREY))
        await self._remember(debate.id, "poll")

    async def open_poll(self, debate: Debate) -> None:
        """No poll in a terminal."""

    async def close_poll(self, debate: Debate) -> tuple[int, ...] | None:
        """No poll was opened: nothing to read."""
        return None
