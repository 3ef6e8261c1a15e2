"""What the terminal asks and tells the people: a pause's keys (the budget, or converging),
the moderator's question with numbered options, and one-line notices coloured by kind."""

from __future__ import annotations

from rich.text import Text

from bot.console.room_out import ConsoleOut
from bot.console.text import MODERATOR_GREY, USER_AMBER, WARNING_ORANGE
from bot.formatting import notice_params
from handlers.core.convergence import meter
from handlers.core.model import Debate, UserQuestion

_WARNING_KEYS = ("debater.", "wiki.refused", "wiki.delayed", "wiki.human_edit")
_AMBER_KEYS = ("user.", "debate.stopped_by")


def ask_budget(out: ConsoleOut, debate: Debate) -> None:
    """A pause (the budget, or converging): d declares consensus, e one more round, c
    concludes (shown once per pause)."""
    area = "budget" if debate.paused == "budget" else "convergence"
    latest = debate.consensus_trend[-1] if debate.consensus_trend else 0.0
    values = {
        "rounds": debate.max_rounds,
        "percent": round(latest * 100),
        "bars": meter(debate.consensus_trend),
    }
    said = Text(out.t(f"{area}.body", **values), style="bold")
    out.panel(said, f"{area}.title", USER_AMBER, f"{area}.console_keys")


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
