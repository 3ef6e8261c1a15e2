"""The debate's end in the terminal: the Conclusion, or a format's closing summary in its
place, with the pages written. Mixed into ConsoleRoom, like the poll's part (room_poll.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from bot.console.text import MODERATOR_GREY, seat_name
from handlers.core.formats import format_named
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import Conclusion, Debate, WikiPage
from handlers.ports import Wiki


class ConsoleEndRoom:
    """Mixed into ConsoleRoom, which supplies the console, the strings, the wiki and the
    records."""

    console: Console
    _t: Strings
    _wiki: Wiki

    if TYPE_CHECKING:

        async def _first_time(self, debate_id: int, key: str) -> bool: ...

        async def _remember(self, debate_id: int, key: str) -> None: ...

        def _line(self, text: str, colour: str, *, bold: bool = False) -> None: ...

    async def post_summary(self, debate: Debate, markdown: str) -> None:
        """The format's closing block in full, then the pages it wrote; in the Conclusion's
        place when it stands in for one."""
        closing = format_named(debate.format).closes_itself(debate)
        slot = "conclusion" if closing else "summary"
        if not await self._first_time(debate.id, slot):
            return
        t = self._t
        title = t("console.conclusion_title" if closing else "front.summary_title")
        self.console.rule(Text(title, style="bold"), style=MODERATOR_GREY)
        for line in fill_keys(markdown, t).splitlines():
            self._line(line, MODERATOR_GREY)
        self._line(t("console.conclusion_pages"), MODERATOR_GREY, bold=True)
        for page in format_named(debate.format).pages(debate):
            self._line(f"• {page}: {self._wiki.page_url(debate, page)}", MODERATOR_GREY)
        await self._remember(debate.id, slot)

    async def post_conclusion(self, debate: Debate, conclusion: Conclusion) -> None:
        """The end: decision, agreed and open points, positions, next steps and the pages."""
        if not await self._first_time(debate.id, "conclusion"):
            return
        t = self._t
        self.console.rule(Text(t("console.conclusion_title"), style="bold"), style=MODERATOR_GREY)
        self._line(conclusion.decision, MODERATOR_GREY, bold=True)
        sections = (
            ("console.conclusion_agreed", conclusion.agreed),
            ("console.conclusion_open", conclusion.open_issues),
            ("console.conclusion_next", conclusion.next_steps),
            (
                "console.conclusion_positions",
                tuple(
                    f"{seat_name(t, seat, debate)}: {text}" for seat, text in conclusion.positions
                ),
            ),
        )
        for key, items in sections:
            if items:
                self._line(t(key), MODERATOR_GREY, bold=True)
                for item in items:
                    self._line(f"• {item}", MODERATOR_GREY)
        self._line(t("console.conclusion_pages"), MODERATOR_GREY, bold=True)
        written = format_named(debate.format).pages(debate)
        for page in (page for page in WikiPage if page.value in written):
            self._line(
                f"• {t(f'console.page_{page.name.lower()}')}: "
                f"{self._wiki.page_url(debate, page.value)}",
                MODERATOR_GREY,
            )
        await self._remember(debate.id, "conclusion")
