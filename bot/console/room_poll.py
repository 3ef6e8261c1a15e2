"""The people's poll in the terminal (issue 18, feature 2). The console runs no poll (a
terminal has no one to vote; the session sets POLL_HOURS off), so a stalemate there pauses
as before; the report is still shown if one is written."""

from __future__ import annotations

from rich.panel import Panel
from rich.text import Text

from bot.console.room_out import ConsoleOut
from bot.console.text import MODERATOR_GREY
from handlers.core.minority import report_markdown
from handlers.core.model import Debate


async def post_minority_report(out: ConsoleOut, debate: Debate) -> None:
    """Each side's strongest case, once."""
    poll = debate.poll
    if poll is None or poll.report is None or not await out.first_time(debate.id, "poll"):
        return
    body = Text(report_markdown(debate, poll.report, out.t).replace("**", ""))
    title = Text(out.t("poll.console_report"))
    out.console.print(Panel(body, title=title, border_style=MODERATOR_GREY))
    await out.remember(debate.id, "poll")
