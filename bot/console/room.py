"""The engine's Room port in a terminal, with rich: `show` matches each effect and hands it to
the part it concerns (the card, the status, a turn, the people, the poll, the end).

Colours follow the Discord embeds: AG green, Claude blue, the moderator grey, the people's
decisions amber. Every post is keyed like the Discord room's messages (`room_messages`), so
a repeat after a crash prints nothing twice (bot/console/room_out.py).
"""

from __future__ import annotations

from rich.console import Console

from bot.console.room_card import close_card, post_card
from bot.console.room_end import post_conclusion, post_summary
from bot.console.room_out import ConsoleOut
from bot.console.room_people import ask_budget, ask_user, notify
from bot.console.room_poll import post_minority_report
from bot.console.room_status import ConsoleStatus
from bot.console.room_turn import Working, post_turn
from bot.console.seats import Typed
from handlers.core.effects import (
    AskBudget,
    AskUser,
    CloseCard,
    Notify,
    OpenPoll,
    OpenRoom,
    PostCard,
    PostConclusion,
    PostMinorityReport,
    PostSummary,
    PostTurn,
    RoomEffect,
    UpdateClaims,
    UpdateStatus,
)
from handlers.core.i18n import Strings
from handlers.core.model import Debate
from handlers.ports import NOTHING, Clock, Loaded
from tools.store.db import Database


class ConsoleRoom:
    """Prints debates to a rich Console; `typed` seats type at the keyboard, `names` name people."""

    def __init__(
        self,
        console: Console,
        strings: Strings,
        clock: Clock,
        *,
        db: Database | None = None,
        typed: Typed | None = None,
        names: dict[int, str] | None = None,
        rules_only: bool = False,
    ) -> None:
        self.console = console
        self._out = ConsoleOut(console, strings, db)
        self._typed = typed or Typed()
        self._names = names if names is not None else {}
        self._rules_only = rules_only
        self._status = ConsoleStatus(self._out, clock, rules_only=rules_only)

    async def show(  # noqa: PLR0912  # one case per kind of effect: a table, not logic
        self, debate: Debate, effect: RoomEffect, loaded: Loaded = NOTHING
    ) -> str:
        """Print what `effect` says, once; the terminal has no links to return."""
        out = self._out
        match effect:
            case PostCard():
                await post_card(out, debate)
            case CloseCard():
                await close_card(out, self._names, debate)
            case OpenRoom():
                await self._status.open(debate)
            case UpdateStatus():
                self._status.status(debate)
            case UpdateClaims():
                self._status.claims(debate)
            case PostTurn():
                await post_turn(out, debate, loaded.stored_turn())
            case Notify(key=key, params=params):
                # Without Gemini the rules moderate from the first turn: no "switched" news.
                if not (self._rules_only and key.startswith("moderator.mode_")):
                    notify(out, key, dict(params))
            case AskUser(question=question):
                await ask_user(out, debate, question)
            case AskBudget():
                await ask_budget(out, debate)
            case PostConclusion(conclusion=conclusion):
                await post_conclusion(out, debate, conclusion, loaded.links)
            case PostSummary():
                await post_summary(out, debate, loaded.markdown, loaded.links)
            case PostMinorityReport():
                await post_minority_report(out, debate)
            case OpenPoll():
                pass  # no poll in a terminal: no one there votes
        return ""

    async def votes(self, debate: Debate) -> tuple[int, ...] | None:
        """No poll is opened in a terminal: nothing to read."""
        return None

    def working(self, debate: Debate, seat: str) -> Working:
        """A line (and a spinner in a real terminal) while `seat` works on its turn."""
        typed_here = self._typed(seat, debate.member(seat).backend)
        return Working(self._out, seat, debate, typed_here=typed_here)
