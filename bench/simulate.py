"""Seeded simulation: many debates through the real engine, store and moderator client, with
crashes and faults where features meet.

The pure core, the engine (DebateHandler and its workers), the real store (one SQLite file, or
the PostgreSQL database of `DATABASE_URL`) and the real GeminiModerator run as in production;
the outside world is simulated from the seed (bench/sim/): debaters that answer in each
format's layout, in hostile shapes, or fail (Claude's usage limits, with resets soon, past, in
milliseconds, absurd, or on every turn, read by the real CLI output parser); a moderator model
that is out, throttled, malformed or too large; a room and a wiki that fail, throttle, hang,
or act and lose their answer; a database that goes away around a write; people who approve,
choose, answer, vote, stop and skip, authorised or not, late, twice, two at the same moment,
or while an answer is coming in; several debates at once in one process. At any port call or
committed step the process may die: everything in memory is dropped and the engine restarts
from the store, as after `kill -9`.

Invariants, checked for every debate (bench/sim/checks.py):
- every reply stored is posted once, whole, and in the Round-Log once; nothing posted that
  was never stored; a debater is asked again only when its earlier answer was not stored;
- every answer paid for is stored (unless the process died before it could be);
- an ended debate's status shows the end; every question and note shown is bounded;
- no wiki page is written after the end was shown; a Conclusion, when there is one, once;
- no timer outlives its debate; costs add up; a consensus or verdict only once every seat
  has spoken (or failed trying);
- every debate ends, or waits on a named human step, within its budget of steps;
- an outsider's event is refused and changes nothing; of two answers at once, one is taken;
and for the run: no ERROR log or traceback (but the injected deaths'), and no event-loop
callback holding the loop over 100 ms of CPU.
Several processes sharing a database are covered by real-process tests (tests/e2e), not here.

Fates are drawn per debate and per call from the seed, so a seed draws the same world however
concurrent steps interleave (threads answering at other moments on a busy machine can still
interleave a run differently): a violation prints the seed and the debate's index; `--seed S
--only I` runs that debate alone.

Run: .venv/bin/python bench/simulate.py --seed 1 --debates 2000 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import handlers.leasing  # after the path: bench scripts run from anywhere
from bench.sim.run import STALL_MS, ErrorLog, Simulation, Stall, Tally, stalls


def summary(tally: Tally, errors: list[str], stall: Stall, seconds: float) -> dict[str, Any]:
    """The run's figures as one JSON object."""
    found = list(tally.violations)
    found += [{"seed": None, "debate": None, "what": f"ERROR log: {line}"} for line in errors]
    if stall.ms > STALL_MS:
        what = f"a {stall.ms:.0f} ms stall in {stall.where}"
        found.append({"seed": None, "debate": None, "what": what})
    return {
        "debates": tally.debates,
        "formats": len(tally.formats),
        "by_format": dict(sorted(tally.formats.items())),
        "outcomes": dict(sorted(tally.outcomes.items())),
        "crashes_injected": tally.crashes,
        "faults_injected": tally.faults,
        "restarts": tally.restarts,
        "paid_repeats": tally.paid_repeats,
        "steelman_turns": tally.steelman_turns,
        "outsider_events_refused": tally.refused,
        "at_once": tally.at_once,
        "meanwhile": tally.meanwhile,
        "most_at_once": tally.most_at_once,
        "worst_stall_ms": round(stall.ms, 1),
        "violations": len(found),
        "first_violations": found[:10],
        "seconds": round(seconds, 1),
    }


async def simulate(seed: int, debates: int, only: int | None = None) -> dict[str, Any]:
    """Run the simulation; its figures."""
    tally, errors = Tally(), ErrorLog()
    started = time.monotonic()
    root = logging.getLogger()
    root.addHandler(errors)
    # An outage of the database is waited out with real sleeps; here it lasts no time.
    waits = handlers.leasing.STORE_FIRST_WAIT_S, handlers.leasing.STORE_LONGEST_WAIT_S
    handlers.leasing.STORE_FIRST_WAIT_S = handlers.leasing.STORE_LONGEST_WAIT_S = 0.0
    try:
        with stalls() as worst, tempfile.TemporaryDirectory() as folder:
            target = os.environ.get("DATABASE_URL") or str(Path(folder) / "sim.sqlite3")
            await Simulation(seed, target, tally).run(debates, only)
    finally:
        root.removeHandler(errors)
        handlers.leasing.STORE_FIRST_WAIT_S, handlers.leasing.STORE_LONGEST_WAIT_S = waits
    return summary(tally, errors.records, worst, time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--debates", type=int, default=200)
    parser.add_argument("--only", type=int, help="replay this one debate of the seed, alone")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the injected failures are logged as errors
    figures = asyncio.run(simulate(args.seed, args.debates, args.only))
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
