"""Each seat's record over a server's debates, for Discord's `/debate stats` and the console's
`/stats`: what the store reads (`SeatReads`), the pure count (`seat_records`) and the table
people read (`stats_text`). Nothing here leaves the server it is asked in."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from handlers.core.i18n import Strings
from handlers.core.kinds import Stance
from handlers.core.model import Debate
from handlers.core.moderation.claims import Claim, ClaimStatus
from handlers.core.turns.concessions import moved_toward

MESSAGE_LIMIT = 2000  # Discord's, for a private reply: the whole table fits in one
NAME_WIDTH = 14  # a seat's name in the table, at most (terminal columns)
# (debate, turn, seat, the stance its reply stated)
StanceRow = tuple[int, int, str, Stance | None]


class SeatReads(Protocol):
    """What `/debate stats` reads: one server's debates and its turns' stances."""

    def debates(self, guild_id: int | None, since: datetime | None) -> AsyncIterator[Debate]:
        """The debates of server `guild_id` (None: of every server) made since `since`, one
        at a time (a thousand held at once would make the garbage collector stall the loop)."""

    async def stances(self, guild_id: int | None, since: datetime | None) -> list[StanceRow]:
        """(debate, turn, seat, stated stance) of those debates' turns, in turn order."""


async def seat_stats(
    reads: SeatReads, guild_id: int | None, days: int, now: datetime, strings: Strings
) -> str:
    """The table of server `guild_id` (None: every debate, the console's), over the last
    `days` days (0: ever), each debate counted as it is read and then let go."""
    since = now - timedelta(days=days) if days else None
    tally = Tally(await reads.stances(guild_id, since))
    async for debate in reads.debates(guild_id, since):
        tally.add(debate)
    return stats_text(tally.records(), tally.debates, strings, days)


@dataclass(frozen=True)
class SeatRecord:
    """One seat's figures over the debates it sat in."""

    seat: str
    name: str  # as its latest debate names it
    debates: int = 0  # debates whose roster held it
    turns: int = 0  # its stored turns
    failures: int = 0  # debates in which it failed or was skipped
    pauses: int = 0  # debates in which a usage limit or spent credits held it back
    quoted: int = 0  # concessions that quoted what convinced it
    unquoted: int = 0  # concessions with no matching quote
    claims: int = 0  # claims it held that reached the outcome
    cost_usd: float = 0.0


def seat_records(debates: Iterable[Debate], stances: Iterable[StanceRow]) -> list[SeatRecord]:
    """Per seat, its figures over `debates` (with their turns' `stances`), most turns first."""
    tally = Tally(stances)
    for debate in debates:
        tally.add(debate)
    return tally.records()


class Tally:
    """The seats' figures so far, a debate at a time (pure: no debate is kept)."""

    def __init__(self, stances: Iterable[StanceRow]) -> None:
        self._moves = _concessions(stances)
        self._names: dict[str, str] = {}
        self._counts: dict[str, list[float]] = {}  # per seat, SeatRecord's figures in order
        self.debates = 0

    def add(self, debate: Debate) -> None:
        """Count one debate."""
        self.debates += 1
        turns = Counter(seat for _, seat in debate.floor.log)
        unquoted = set(debate.floor.unquoted)
        reached, roster = _reached(debate), debate.ids
        for seat in dict.fromkeys((*roster, *turns)):
            conceded = self._moves.get((debate.id, seat), ())
            self._names[seat] = debate.name_of(seat)  # the latest debate's name for it
            figures = (
                seat in roster,
                turns[seat],
                seat in debate.floor.faltered,
                _held(debate, seat),
                sum((t, seat) not in unquoted for t in conceded),
                sum((t, seat) in unquoted for t in conceded),
                sum(seat in claim.holders for claim in reached),
                debate.spend.of(seat),
            )
            total = self._counts.setdefault(seat, [0] * len(figures))
            for n, figure in enumerate(figures):
                total[n] += figure

    def records(self) -> list[SeatRecord]:
        """Each seat's record, most turns first."""
        found = [_record(seat, self._names[seat], t) for seat, t in self._counts.items()]
        return sorted(found, key=lambda r: (-r.turns, r.seat))


def _record(seat: str, name: str, total: list[float]) -> SeatRecord:
    debates, turns, failures, pauses, quoted, unquoted, claims, cost = total
    return SeatRecord(
        seat,
        name,
        debates=int(debates),
        turns=int(turns),
        failures=int(failures),
        pauses=int(pauses),
        quoted=int(quoted),
        unquoted=int(unquoted),
        claims=int(claims),
        cost_usd=cost,
    )


def _concessions(stances: Iterable[StanceRow]) -> dict[tuple[int, str], tuple[int, ...]]:
    """Per (debate, seat), the turns whose stance moved toward the others' (a concession, as
    handlers/core/turns/concessions.py judges one when the reply comes)."""
    last: dict[tuple[int, str], Stance | None] = {}
    moves: dict[tuple[int, str], tuple[int, ...]] = {}
    for debate_id, turn, seat, stance in stances:
        key = (debate_id, seat)
        if moved_toward(last.get(key), stance):
            moves[key] = (*moves.get(key, ()), turn)
        if stance is not None:
            last[key] = stance
    return moves


def _held(debate: Debate, seat: str) -> bool:
    """A usage limit or spent credits held the seat back (its ask waits, or it is benched)."""
    asks = (*debate.floor.asked, *debate.floor.late)
    return seat in debate.spend.benched or any(a.paused and a.participant == seat for a in asks)


def _reached(debate: Debate) -> tuple[Claim, ...]:
    """The claims that reached the outcome: agreed on the final board, or named in the
    Conclusion (by id or wording); none before the debate ended with one."""
    conclusion = debate.ending.conclusion
    if conclusion is None:
        return ()
    said = " ".join((conclusion.decision, *conclusion.agreed)).casefold()
    return tuple(
        claim
        for claim in debate.moderation.claims
        if claim.status is ClaimStatus.AGREED
        or (claim.status is not ClaimStatus.WITHDRAWN and _named(claim, said))
    )


def _named(claim: Claim, said: str) -> bool:
    """The claim's id (as a word) or whole wording stands in `said` (case-folded)."""
    words = said.replace(",", " ").replace(".", " ").split()
    return claim.id.casefold() in words or claim.text.casefold() in said


def stats_text(records: list[SeatRecord], debates: int, strings: Strings, days: int = 0) -> str:
    """The table in a code block, with a title (the debates counted, over `days` or ever) and
    a key; as many seats as fit in one message, then how many more were left out."""
    if not debates:
        return strings("stats.none_days" if days else "stats.none", days=days)
    title = strings("stats.title_days" if days else "stats.title", count=debates, days=days)
    head = [strings(f"stats.col_{c}") for c in _COLUMNS]
    rows = [_cells(r) for r in records]
    key = strings("stats.key")
    shown = len(rows)
    while True:
        left = len(rows) - shown
        more = [strings("stats.more", count=left)] if left else []
        text = "\n".join([title, _block([head, *rows[:shown]]), key, *more])
        if len(text) <= MESSAGE_LIMIT or shown == 0:
            return text
        shown -= 1


_COLUMNS = (
    "seat",
    "debates",
    "turns",
    "failures",
    "pauses",
    "quoted",
    "unquoted",
    "claims",
    "cost",
)


def _cells(record: SeatRecord) -> list[str]:
    counts = (record.debates, record.turns, record.failures, record.pauses, record.quoted)
    rest = (record.unquoted, record.claims)
    name = _clip(record.name, NAME_WIDTH)
    return [name, *(str(n) for n in (*counts, *rest)), f"${record.cost_usd:,.2f}"]


def _block(table: list[list[str]]) -> str:
    """The rows as aligned columns in a code block (names left, figures right)."""
    widths = [max(_width(row[i]) for row in table) for i in range(len(table[0]))]
    lines = [
        " ".join(
            _pad(cell, width, left=i == 0)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in table
    ]
    return "```\n" + "\n".join(lines) + "\n```"


def _width(text: str) -> int:
    """Terminal columns: a wide (CJK) character takes two, as Discord's code font draws it."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int, *, left: bool) -> str:
    room = " " * (width - _width(text))
    return text + room if left else room + text


def _clip(name: str, width: int) -> str:
    """The name cut to `width` columns, with a mark if it was cut."""
    if _width(name) <= width:
        return name
    kept = ""
    for char in name:
        if _width(kept + char) > width - 1:
            break
        kept += char
    return kept + "…"
