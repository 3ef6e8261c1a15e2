"""Benchmark: what a Round-Log entry costs the bot, through the real outbox, local wiki and SQLite.

50 debates at once each append 10 replies of 1,500-3,000 characters to their Round-Log (after
a warm-up in which 5 other debates write theirs, so the files, the database and the threads
exist). Each entry is queued (rendered, stored in `wiki_outbox`), read by the debate's writer,
merged with its page, written to the page's file, flushed to disk and marked done. Measured:

- `cpu_us_per_entry`: this process's CPU time (user + system, `os.times()`) over the 500
  entries, divided by them;
- `cpu_us_per_entry_by_thread`: the same by thread (the event loop, aiosqlite's thread, the
  worker thread of the flushes);
- `sys_share`: the part of it spent in the kernel (file and database calls, thread hand-offs).

`--repeat N` runs it N times in fresh processes, interleaved with nothing else, and prints the
median of each figure with every run's CPU per entry.

Run: .venv/bin/python bench/wiki_entry.py [--json] [--repeat N] [--debates 50] [--entries 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from handlers.core.wiki.events import WikiReported

# `tests` is not installed; run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine_load import thread_cpu_s
from bot.root.discord_app import new_event_loop
from handlers.core.i18n import Strings
from tests import effects
from tests.tools.wiki.support import debate, turn
from tools.store.db import Database
from tools.store.wiki_outbox import LandedPages, OutboxQueue
from tools.wiki.backends import LocalWiki
from tools.wiki.outbox import WikiOutbox

ROOT = Path(__file__).resolve().parents[1]

DEBATES, ENTRIES, WARM_UP = 50, 10, 5
WORDS = ["캐시", "계층", "운영", "부담", "Redis", "LRU", "cache", "결정", "근거", "trade-off"]


async def _notify(debate_id: int, news: WikiReported) -> None:
    """Nobody to tell: the wiki is up."""


async def run(debates: int = DEBATES, entries: int = ENTRIES) -> dict[str, Any]:
    """One run: the warm-up, then the measured entries."""
    rng = random.Random(7)
    replies = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(400, 800))) for _ in range(20)]
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(str(Path(tmp) / "bench.sqlite3"))
        outbox = WikiOutbox(
            OutboxQueue(db),
            LandedPages(db),
            LocalWiki(Path(tmp) / "wiki"),
            root="debates",
            strings=Strings("ko"),
            notify=_notify,
            sleep=asyncio.sleep,
        )

        async def one(debate_id: int) -> None:
            for number in range(1, entries + 1):
                text = replies[(debate_id + number) % len(replies)]
                url = f"https://discord.com/channels/1/2/{debate_id * 100 + number}"
                logged = turn(number, text, None, debate_id)
                await outbox.write(debate(debate_id), *effects.logged(logged, url))
                await asyncio.sleep(0)  # the next reply comes from another turn

        try:
            await asyncio.gather(*(one(n) for n in range(1, WARM_UP + 1)))
            await outbox.drained()
            threads0, cpu0 = thread_cpu_s(), os.times()
            await asyncio.gather(*(one(1000 + n) for n in range(debates)))
            await outbox.drained()
            cpu1, threads1 = os.times(), thread_cpu_s()
        finally:
            await outbox.aclose()
            await db.close()
    count = debates * entries
    user, system = cpu1.user - cpu0.user, cpu1.system - cpu0.system
    return {
        "cpu_us_per_entry": (user + system) * 1e6 / count,
        "sys_share": system / (user + system) if user + system else 0.0,
        "cpu_us_per_entry_by_thread": {
            name: round((spent - threads0.get(name, 0.0)) * 1e6 / count, 1)
            for name, spent in sorted(threads1.items(), key=lambda kv: -kv[1])
        },
    }


def main() -> None:
    """One run in this process (`--child`), or `--repeat` runs in fresh ones and their medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeat", type=int, default=1, help="runs, in fresh processes")
    parser.add_argument("--debates", type=int, default=DEBATES, help="debates at once")
    parser.add_argument("--entries", type=int, default=ENTRIES, help="entries per debate")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        with asyncio.Runner(loop_factory=new_event_loop) as runner:
            print(json.dumps(runner.run(run(args.debates, args.entries))))
        return
    runs = []
    sizes = ["--debates", str(args.debates), "--entries", str(args.entries)]
    for _ in range(args.repeat):
        done = subprocess.run(
            [sys.executable, __file__, "--child", *sizes],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    out = {
        "cpu_us_per_entry": round(statistics.median(r["cpu_us_per_entry"] for r in runs), 1),
        "sys_share": round(statistics.median(r["sys_share"] for r in runs), 3),
        "cpu_us_per_entry_by_thread": runs[len(runs) // 2]["cpu_us_per_entry_by_thread"],
    }
    if args.json:
        print(json.dumps(out))
        return
    each = ", ".join(f"{r['cpu_us_per_entry']:.0f}" for r in runs)
    print(
        f"CPU per Round-Log entry, {args.debates} debates at once: {out['cpu_us_per_entry']:.0f} us"
    )
    print(
        f"  in the kernel: {out['sys_share']:.0%}; by thread: {out['cpu_us_per_entry_by_thread']}"
    )
    print(f"  each run: {each} us")


if __name__ == "__main__":
    main()
