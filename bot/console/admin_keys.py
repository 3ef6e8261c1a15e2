"""The approvers' commands typed in the console: `/list [page]`, `/status N`, `/stop N`,
`/export N [adr]`, `/stats [days]` (as Discord's `/debate list|status|stop|export|stats`; the
console's one person owns the terminal and every debate in its database, so nobody is refused
and no server is asked)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from bot.admin import AdminReads, debate_line, debate_lines, open_debates
from bot.formatting import page_links, status_line
from bot.stats import SeatReads, seat_stats
from handlers.core.events import StopRequested
from handlers.core.i18n import Strings
from handlers.core.model import Actor, Debate
from handlers.debate_handler import DebateHandler
from handlers.ports import Clock
from tools.store.debates import DebateNotFound
from tools.wiki.adr import adr_file, adr_name
from tools.wiki.export import export_file, export_name

_COMMAND = re.compile(
    r"^/(list|status|stop|export|stats)(?:\s+#?(\d+))?(?:\s+(adr))?$", re.IGNORECASE
)


class AdminKeys:
    """Answers one typed command line, or says it is not one (None)."""

    def __init__(
        self,
        handler: DebateHandler,
        store: AdminReads,
        strings: Strings,
        clock: Clock,
        export_dir: Path,
        records: SeatReads,
        *,
        page_url: Callable[[Debate, str], str] | None = None,
    ) -> None:
        self._handler, self._store, self._t, self._clock = handler, store, strings, clock
        self._records = records  # `/stats`'s read side: every debate of this database
        self._export_dir = export_dir  # where `/export N` writes the debate's one file
        self._page_url = page_url  # where a debate's wiki page is read (`/export N adr`)

    async def answer(self, text: str, actor: Actor) -> str | None:
        """What the command says; None if the line is no such command (`/stop` alone stops
        the running debate, as before)."""
        found = _COMMAND.match(text.strip())
        if found is None:
            return None
        verb, number, adr = found[1].lower(), found[2], found[3] is not None
        if adr and verb != "export":
            return self._t("admin.console_usage")
        if verb == "list":
            debates = await open_debates(self._store)
            page = int(number or 1)
            links = [""] * len(debates)
            return debate_lines(debates, self._t, self._line, links, page=page, command=_list_page)
        if verb == "stats":
            return await self._stats(int(number or 0))
        if number is None:  # `/stop` alone stops the running debate, as before
            return None if verb == "stop" else self._t("admin.console_usage")
        try:
            debate = await self._handler.get(int(number))
        except DebateNotFound:
            return self._t("admin.no_debate", id=number)
        if verb == "status":
            return debate_line(debate, self._t, self._line)
        if verb == "export" and adr:
            return await self._adr(debate)
        if verb == "export":
            turns = await self._store.last_turns(debate.id, debate.stored_turns)
            path = self._export_dir / export_name(debate)
            path.write_bytes(await export_file(debate, turns, self._t))
            return self._t("export.written", path=str(path))
        done = await self._handler.submit(debate.id, StopRequested(actor))
        return self._t("admin.stopped" if done.taken else "admin.not_stopped", id=number)

    async def _stats(self, days: int) -> str:
        """Each seat's record over the database's debates (of the last `days` days, or all)."""
        return await seat_stats(self._records, None, days, self._clock.now(), self._t)

    async def _adr(self, debate: Debate) -> str:
        """`/export N adr`: the decision as an ADR (tools/wiki/adr.py) beside the database."""
        turns = await self._store.last_turns(debate.id, debate.stored_turns)
        t, page_url = self._t.of(debate), self._page_url
        links = page_links(t, debate, lambda p: page_url(debate, p), "console") if page_url else ()
        path = self._export_dir / adr_name(debate)
        path.write_bytes(await adr_file(debate, turns, t, links=links))
        return self._t("adr.written", path=str(path))

    def _line(self, debate: Debate) -> str:
        return status_line(debate, self._t, self._clock.now())


def _list_page(page: int) -> str:
    """The typed command that shows page `page` of the list."""
    return f"`/list {page}`"
