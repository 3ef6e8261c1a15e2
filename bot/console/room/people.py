"""What the terminal asks and tells the people: a pause's keys (the budget, or converging),
the moderator's question with numbered options, and one-line notices coloured by kind."""

from __future__ import annotations

from rich.panel import Panel
from rich.text import Text

from bot.console.room.out import MODERATOR_GREY, USER_AMBER, WARNING_ORANGE, ConsoleOut
from bot.formatting import notice_params, pause_area, pause_words
from handlers.core.model import Debate, UserQuestion

_WARNING_KEYS = ("debater.", "wiki.refused", "wiki.delayed", "wiki.unwritable", "wiki.human_edit")
_AMBER_KEYS = ("user.", "debate.stopped_by")


def ask_budget(out: ConsoleOut, debate: Debate) -> None:
    """A pause (the budget, converging, a limit) and the keys that answer it."""
    title, said = pause_words(debate, out.t)
    keys = Text(out.t(f"{pause_area(debate)}.console_keys"))
    body = Text(said, style="bold")
    out.console.print(Panel(body, title=Text(title), subtitle=keys, border_style=USER_AMBER))


def ask_user(out: ConsoleOut, question: UserQuestion) -> None:
    """The moderator's question in amber, options numbered for the keyboard."""
    body = Text(question.text, style="bold")
    for number, option in enumerate(question.options, start=1):
        body.append(f"\n  {number}. {option}")
    out.panel(body, "console.question_title", USER_AMBER, "console.question_keys")


def notify(out: ConsoleOut, key: str, params: dict[str, str]) -> None:
    """One localized line: warnings orange, the people's decisions amber, the rest grey."""
    params = notice_params(out.t, params)
    colour = MODERATOR_GREY
    if key.startswith(_WARNING_KEYS):
        colour = WARNING_ORANGE
    elif key.startswith(_AMBER_KEYS):
        colour = USER_AMBER
    out.line(out.t(key, **params), colour)
