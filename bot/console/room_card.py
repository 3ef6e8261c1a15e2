"""The approval card in the terminal: the proposal, its format and options, the keys that
answer it, and how it ended. Mixed into ConsoleRoom, like the poll's part (room_poll.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from bot.console.card_keys import option_lines
from bot.console.text import MODERATOR_GREY, USER_AMBER, seat_name
from bot.formatting import format_label, suggestion
from bot.ledger_card import roster_line
from handlers.core.formats import formats_for
from handlers.core.i18n import Strings
from handlers.core.model import Debate, Phase


class ConsoleCardRoom:
    """Mixed into ConsoleRoom, which supplies the console, the strings, the names and the
    records."""

    console: Console
    _t: Strings
    _names: dict[int, str]

    if TYPE_CHECKING:

        async def _first_time(self, debate_id: int, key: str) -> bool: ...

        async def _remember(self, debate_id: int, key: str) -> None: ...

        def _line(self, text: str, colour: str, *, bold: bool = False) -> None: ...

    async def post_card(self, debate: Debate) -> None:
        """The approval card, with the keys that answer it."""
        if not await self._first_time(debate.id, "card"):
            return
        proposal, t = debate.proposal, self._t
        body = Text()
        body.append(f"{t('console.card_topic')}: ", style="bold")
        body.append(f"{proposal.topic}\n")
        body.append(f"{t('console.card_question')}: ", style="bold")
        body.append(f"{proposal.question or proposal.topic}\n")
        if proposal.reason:
            body.append(f"{t('console.card_reason')}: ", style="bold")
            body.append(f"{proposal.reason}\n")
        body.append(f"{t('console.card_format')}: ", style="bold")
        name = format_label(t, debate.format)
        body.append(t("console.card_format_value", format=name, rounds=debate.max_rounds) + "\n")
        if hint := suggestion(debate, t):
            body.append(hint + "\n")
        if len(offered := formats_for(debate.roster)) > 1:
            listed = " · ".join(
                f"{n}. {format_label(t, f)}" for n, f in enumerate(offered, start=1)
            )
            body.append(t("console.card_formats", formats=listed) + "\n")
        body.append(t("budget.console_card") + "\n")
        for line in option_lines(debate, t):
            body.append(line + "\n")
        for found in proposal.precedents:
            body.append(f"{t('precedents.console')}: {found.title} · {found.url}\n")
        body.append(f"{t('console.card_participants')}: ", style="bold")
        names = {m.id: seat_name(t, m.id, debate) for m in debate.roster}
        body.append(roster_line(debate, t, names))
        self.console.print(
            Panel(
                body,
                title=Text(t("console.card_title")),
                subtitle=Text(t("console.card_keys")),
                border_style=MODERATOR_GREY,
            )
        )
        await self._remember(debate.id, "card")

    async def close_card(self, debate: Debate) -> None:
        """How the card ended: opened, declined or expired."""
        if not await self._first_time(debate.id, "card-closed"):
            return
        ended = debate.phase in (Phase.DECLINED, Phase.EXPIRED)
        phase = debate.phase.value if ended else "opened"
        text = self._t(f"console.card_{phase}", user=self._actor_name(debate))
        self._line(text, USER_AMBER)
        await self._remember(debate.id, "card-closed")

    def _actor_name(self, debate: Debate) -> str:
        who = debate.approved_by
        return "-" if who is None else self._names.get(who, str(who))
