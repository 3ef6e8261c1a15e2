"""Benchmark: how long `/debate stats` takes to answer for a server with 1,000 debates.

A real SQLite file (or the PostgreSQL database of `--database`) holds `--debates` ended
debates of one server and as many of another (the query must skip them). Each debate has
12 turns with long replies (2,000 characters: the query must not read them), a claim board
of 20 claims, a 2,000-character summary, a moderator's note per turn, the people's lines and a
Conclusion, so its stored state is the size a real one is. Measured, each the median of
`--repeat` runs through the same path the command takes (bot/stats.py over
tools/store/seat_records.py):

- `read_debates_ms`: the server's debates, loaded and parsed (all held, as `count_ms` needs);
- `read_stances_ms`: its turns' stances;
- `count_ms`: the pure count (`seat_records`);
- `render_ms`: the table (`stats_text`);
- `total_ms`: all four;
- `answer_ms`: the whole answer as the command gives it (`seat_stats`: each debate counted as
  it is parsed, then let go), what the person waits for after the bot's "thinking";
- `loop_worst_ms`: the longest the event loop (which serves every running debate) went
  without running a ticker that wakes each millisecond, during that answer;
- `loop_idle_worst_ms`: the same over as long with nothing to do (what the machine's own
  load gives: on a shared machine it is not zero).

Run: .venv/bin/python bench/seat_stats.py [--json] [--debates 1000] [--repeat 5]
     [--database postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

# `tests` is not installed; run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.stats import seat_records, seat_stats, stats_text
from handlers.core.ending.state import Conclusion
from handlers.core.i18n import Strings
from handlers.core.kinds import Stance
from handlers.core.model import AG, CLAUDE, Debate, Phase
from handlers.core.moderation.claims import Claim, ClaimStatus
from handlers.core.people.state import PeopleLine
from tests.bot.stats_support import GUILD_A, GUILD_B, Said, built, turns_of
from tests.doubles import T0
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.seat_records import SeatRecords
from tools.store.turns import INSERT_TURN, turn_row

TURNS, CLAIMS, REPLY_CHARS = 12, 20, 2000
KO = Strings("ko")
STANCES = (Stance.DISAGREE, Stance.PARTIAL, Stance.AGREE)


def _said(n: int) -> tuple[Said, ...]:
    """Twelve turns, AG and Claude in turn, their stances drifting toward agreement."""
    seats = (AG, CLAUDE)
    return tuple(Said(seats[t % 2], STANCES[min(2, (t + n) // 5)]) for t in range(TURNS))


def _debate(n: int, guild_id: int) -> Debate:
    """A full-sized ended debate of server `guild_id`."""
    claims = tuple(
        Claim(
            f"C{c}",
            f"claim {c} of debate {n}: " + "x" * 120,
            (AG if c % 2 else CLAUDE,),
            ClaimStatus.AGREED if c % 3 == 0 else ClaimStatus.CONTESTED,
            c,
        )
        for c in range(1, CLAIMS + 1)
    )
    conclusion = Conclusion(
        "We go with an LRU, as C2 and C5 say. " + "y" * 600,
        agreed=tuple(f"point {p} " + "z" * 150 for p in range(5)),
        open_issues=tuple(f"issue {p} " + "w" * 150 for p in range(3)),
    )
    debate = built(
        _said(n),
        guild_id=guild_id,
        faltered=(CLAUDE,) if n % 7 == 0 else (),
        benched=(AG,) if n % 11 == 0 else (),
        unquoted=(5,) if n % 3 == 0 else (),
        claims=claims,
        conclusion=conclusion,
        costs=((AG, 0.02 * TURNS / 2), (CLAUDE, 0.10 * TURNS / 2)),
        at=T0 - timedelta(hours=n),
    )
    moderation = replace(
        debate.moderation,
        summary="s" * 2000,
        notes=tuple((t, "note " + "n" * 200) for t in range(1, TURNS + 1)),
        consensus_trend=tuple(t / TURNS for t in range(TURNS)),
    )
    people = replace(debate.people, lines=tuple(PeopleLine(f"p{p}", "l" * 300) for p in range(6)))
    return replace(debate, moderation=moderation, people=people)


async def _fill(db: Database, debates: int) -> int:
    """Store `debates` debates in each of the two servers; the average state's size."""
    store, sizes = SqliteStore(db), []
    as_bytes = db.dialect == "postgres"
    for guild_id in (GUILD_A, GUILD_B):
        for n in range(debates):
            debate = _debate(n, guild_id)
            made = await store.create(replace(debate, id=0, phase=Phase.PROPOSED), timedelta(1), ())
            assert made is not None
            final = replace(debate, id=made.id, setup=made.setup)
            turns = [
                replace(t, text="r" * REPLY_CHARS, raw="r" * REPLY_CHARS)
                for t in turns_of(final, _said(n))
            ]
            await db.write_all([(INSERT_TURN, turn_row(t, as_bytes)) for t in turns])
            await store.save_step(final, (), None, final.created_at)
            row = await db.fetch_one("SELECT length(state) FROM debates WHERE id = ?", (made.id,))
            sizes.append(int(row[0]) if row else 0)
    return int(statistics.mean(sizes))


async def _once(reads: SeatRecords) -> dict[str, float]:
    """One answer, timed by part."""
    t0 = time.perf_counter()
    debates = [debate async for debate in reads.debates(GUILD_A, None)]
    t1 = time.perf_counter()
    stances = await reads.stances(GUILD_A, None)
    t2 = time.perf_counter()
    records = seat_records(debates, stances)
    t3 = time.perf_counter()
    text = stats_text(records, len(debates), KO)
    t4 = time.perf_counter()
    assert debates and text
    answer_ms, loop_worst_ms = await _stalls(lambda: seat_stats(reads, GUILD_A, 0, T0, KO))
    _, idle_worst_ms = await _stalls(lambda: asyncio.sleep(answer_ms / 1000))
    return {
        "read_debates_ms": (t1 - t0) * 1000,
        "read_stances_ms": (t2 - t1) * 1000,
        "count_ms": (t3 - t2) * 1000,
        "render_ms": (t4 - t3) * 1000,
        "total_ms": (t4 - t0) * 1000,
        "answer_ms": answer_ms,
        "loop_worst_ms": loop_worst_ms,
        "loop_idle_worst_ms": idle_worst_ms,
    }


async def _stalls(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """How long `work` takes, and the longest stall of the loop meanwhile (ms)."""
    gaps: list[float] = []
    done = asyncio.Event()

    async def tick() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(tick())
    t0 = time.perf_counter()
    await work()
    elapsed = time.perf_counter() - t0
    done.set()
    await ticker
    return elapsed * 1000, max(gaps, default=0.0) * 1000


async def run(debates: int, repeat: int, database: str | None) -> dict[str, Any]:
    """Fill a database, then time `repeat` answers; the medians."""
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(database or str(Path(tmp) / "bench.sqlite3"))
        try:
            state_bytes = await _fill(db, debates)
            reads = SeatRecords(db)
            runs = [await _once(reads) for _ in range(repeat)]
        finally:
            await db.close()
    figures = {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}
    return {
        "dialect": "postgres" if database else "sqlite",
        "debates_in_server": debates,
        "debates_in_other_server": debates,
        "turns_per_debate": TURNS,
        "state_bytes_mean": state_bytes,
        **figures,
    }


def main() -> None:
    """Print the figures (as JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--debates", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database", help="a postgresql:// URL (default: a new SQLite file)")
    args = parser.parse_args()
    result = asyncio.run(run(args.debates, args.repeat, args.database))
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
