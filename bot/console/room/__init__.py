"""The engine's Room port in a terminal, with rich: `show` matches each effect and hands it to
the part it concerns (the card, the status, a turn, the people, the end), in the Discord embeds'
colours; a keyed post is printed once (recorded in `room_messages`, as the Discord room's)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from bot.console.room.card import close_card, post_card
from bot.console.room.end import post_conclusion, post_summary
from bot.console.room.out import MODERATOR_GREY, ConsoleOut
from bot.console.room.people import ask_budget, ask_user, notify
from bot.console.room.turn import Working, post_turn
from bot.console.seats import Typed
from bot.formatting import claim_lines, status_line
from handlers.core.effects import (
    AskBudget,
    AskUser,
    CloseCard,
    Notify,
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
from handlers.core.formats import format_named
from handlers.core.i18n import Strings
from handlers.core.model import Debate
from handlers.core.poll.minority import report_markdown
from handlers.core.record.chain import SCHEME, chain_head
from handlers.ports import NOTHING, Clock, Loaded
from tools.store.room_messages import RoomMessages
from tools.wiki.export import export_markdown, export_name

# The posts printed once per debate, by the key `room_messages` keeps them under.
_ONCE: dict[type, str] = {
    PostCard: "card",
    CloseCard: "card-closed",
    OpenRoom: "open",
    PostConclusion: "conclusion",
    PostMinorityReport: "poll",
}


class ConsoleRoom:
    """Prints debates to a rich Console; `typed` seats type at the keyboard, `names` name people."""

    def __init__(
        self,
        console: Console,
        strings: Strings,
        clock: Clock,
        *,
        messages: RoomMessages,
        typed: Typed | None = None,
        names: dict[int, str] | None = None,
        rules_only: bool = False,
        export_dir: Path | None = None,
    ) -> None:
        self.console = console
        self._export_dir = export_dir  # where the one-file export is written at the end
        self._out = ConsoleOut(console, strings)
        self._messages = messages  # the keyed posts printed, as the Discord room's
        self._typed = typed or Typed()
        self._names = names if names is not None else {}
        self._rules_only = rules_only
        self._clock = clock
        self._last: dict[int, str] = {}  # each debate's status line as last printed

    async def show(self, debate: Debate, effect: RoomEffect, loaded: Loaded = NOTHING) -> str:
        """Print what `effect` says, a keyed post once; the terminal has no links to return."""
        key = _posted_as(debate, effect)
        if key and await self._messages.has(debate.id, key):
            return ""  # printed before (a repeat after a crash)
        self._print(debate, effect, loaded)
        if key:
            await self._messages.add(debate.id, key)
        return ""

    def _print(self, debate: Debate, effect: RoomEffect, loaded: Loaded) -> None:  # noqa: PLR0912  # one case per kind of effect: a table
        out = self._out
        match effect:
            case PostCard():
                post_card(out, debate)
            case CloseCard():
                close_card(out, self._names, debate)
            case OpenRoom():
                title = out.t("console.room_title", topic=debate.proposal.topic)
                out.console.rule(Text(title, style="bold"), style=MODERATOR_GREY)
                out.line(out.t("console.room_keys"), MODERATOR_GREY)
            case UpdateStatus():
                self._status(debate)
            case UpdateClaims():
                board = "\n".join(line.replace("**", "") for line in claim_lines(debate, out.t))
                out.panel(Text(board), "claims.console_title", MODERATOR_GREY)
            case PostTurn():
                post_turn(out, debate, loaded.stored_turn())
            case Notify(key=key, params=params):
                # Without Gemini the rules moderate from the first turn: no "switched" news.
                if not (self._rules_only and key.startswith("moderator.mode_")):
                    notify(out, key, dict(params))
            case AskUser(question=question):
                ask_user(out, question)
            case AskBudget():
                ask_budget(out, debate)
            case PostConclusion(conclusion=conclusion):
                post_conclusion(out, debate, conclusion, loaded)
                self._export(debate, loaded)
            case PostSummary():
                post_summary(out, debate, loaded)
                if format_named(debate.setup.format).closes_itself(debate):
                    self._export(debate, loaded)
            case PostMinorityReport() if debate.poll is not None and debate.poll.report:
                # The console runs no poll (no one votes at a terminal); a report is shown.
                report = report_markdown(debate, debate.poll.report, out.t).replace("**", "")
                out.panel(Text(report), "poll.console_report", MODERATOR_GREY)

    def _export(self, debate: Debate, loaded: Loaded) -> None:
        """The record's chain head; the whole debate in one file (tools/wiki/export.py), and
        where it is."""
        head = chain_head(debate, loaded.turns, self._out.t.of(debate))  # as its wiki pages
        self._out.line(self._out.t("record.head", scheme=SCHEME, head=head), MODERATOR_GREY)
        if self._export_dir is None:
            return
        path = self._export_dir / export_name(debate)
        path.write_text(export_markdown(debate, loaded.turns, self._out.t), encoding="utf-8")
        self._out.line(self._out.t("export.written", path=path), MODERATOR_GREY)

    def _status(self, debate: Debate) -> None:
        """The status line, when it changed."""
        line = status_line(debate, self._out.t, self._clock.now(), rules_only=self._rules_only)
        if self._last.get(debate.id) != line:
            self._last[debate.id] = line
            self._out.line(f"⏱  {line}", f"dim {MODERATOR_GREY}")

    async def votes(self, debate: Debate) -> tuple[int, ...] | None:
        """No poll is opened in a terminal: nothing to read."""
        return None

    def working(self, debate: Debate, seat: str) -> Working:
        """A line (and a spinner in a real terminal) while `seat` works on its turn."""
        typed_here = self._typed(seat, debate.member(seat).backend)
        return Working(self._out, seat, debate, typed_here=typed_here)


def _posted_as(debate: Debate, effect: RoomEffect) -> str:
    """The key a post is printed once under; "" for what may print again."""
    match effect:
        case PostTurn(turn=number):
            return f"turn:{number}"
        case AskBudget():
            return f"paused:{debate.people.pauses}"
        case AskUser():
            return f"question:{debate.question_number}"
        case PostSummary():  # in the Conclusion's place when the format closes itself
            return (
                "conclusion"
                if format_named(debate.setup.format).closes_itself(debate)
                else "summary"
            )
        case PostMinorityReport() if debate.poll is None or not debate.poll.report:
            return ""
    return _ONCE.get(type(effect), "")
