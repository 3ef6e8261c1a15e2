"""The room's heading and what stands beside the debate in the terminal: the status line
(printed when it changes) and the claim board (after the judgement that changed it)."""

from __future__ import annotations

from rich.panel import Panel
from rich.text import Text

from bot.console.room_out import ConsoleOut
from bot.console.text import MODERATOR_GREY, status_line
from bot.formatting import claim_lines
from handlers.core.model import Debate
from handlers.ports import Clock


class ConsoleStatus:
    """Prints the heading once, and the status line each time it changes."""

    def __init__(self, out: ConsoleOut, clock: Clock, *, rules_only: bool) -> None:
        self._out, self._clock, self._rules_only = out, clock, rules_only
        self._last: dict[int, str] = {}

    async def open(self, debate: Debate) -> None:
        """The room's heading, once."""
        out = self._out
        if not await out.first_time(debate.id, "open"):
            return
        title = out.t("console.room_title", topic=debate.proposal.topic)
        out.console.rule(Text(title, style="bold"), style=MODERATOR_GREY)
        out.line(out.t("console.room_keys"), MODERATOR_GREY)
        await out.remember(debate.id, "open")

    def status(self, debate: Debate) -> None:
        """The status line, when it changed."""
        line = status_line(debate, self._out.t, self._clock.now(), rules_only=self._rules_only)
        if self._last.get(debate.id) == line:
            return
        self._last[debate.id] = line
        self._out.line(f"⏱  {line}", f"dim {MODERATOR_GREY}")

    def claims(self, debate: Debate) -> None:
        """The claim board as it stands."""
        t = self._out.t
        body = Text("\n".join(line.replace("**", "") for line in claim_lines(debate, t)))
        panel = Panel(body, title=Text(t("claims.console_title")), border_style=MODERATOR_GREY)
        self._out.console.print(panel)
