"""Benchmark: the bot's own overhead per turn with 1, 10, 50 and 100 debates at once.

Each size runs in a fresh child process (clean memory figures): the loopback fake Discord
runs as its own process (as Discord is remote), the bot is the real composition root
(`bot.root.discord_app.assemble`: DebateHandler, SqliteStore on a file, WikiOutbox on a local
folder, DiscordRoom on a logged-in discord.py client), and only the moderator and the two debaters
are instant stand-ins. A turn's overhead is the time from one debater's answer to the next
debater being asked: storing the reply, posting it, the Round-Log, the status, the
moderator's (instant) judgement and the next relay. REST calls and SQLite writes are counted
from the proposal to the last debate's end (cards, threads, pins and conclusions included).

`cpu_ms_per_turn` is the bot process's CPU time (user + system, `os.times()`: process time,
which other processes' load inflates far less than wall time) over the run divided by the
turns. Only the bot's work is in that process: the fake Discord is its own process (as Discord
is remote); the wiki is the local-folder backend, whose work is the bot's; the debaters and
the moderator are in-process stand-ins that hand back replies made before the run. The
bench's own instruments are kept out of the figure: SQLite's statements are counted in a run
of their own at 50 debates (a trace callback costs the database thread about a fifth of its
CPU: it takes the GIL for every statement), and the memory peak is VmHWM read once at the
end instead of a sampler. `cpu_ms_per_turn_by_thread` splits
the figure by thread (the event loop, aiosqlite's thread, the to_thread pool of the wiki's
file I/O). `p95_ms_paced` is the p95 overhead at 50 debates whose debaters think 2 s on
average (the load a real deployment sees, without queueing behind instant debaters).
`cpu_ms_per_extra_turn` and `cpu_ms_per_debate_setup` split the CPU at 50 debates into what one
more turn costs and what a debate costs whatever its length (card, thread, pins, agenda,
Conclusion), from a second run of one round per debate.

Run: .venv/bin/python bench/engine_load.py [--json] [--sizes 1,10,50,100] [--rounds 5]
     [--paced-size 50] [--paced-think-s 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

# `tests.fakes` is not installed; run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from bot.discord.client import DebateBot
from bot.root.discord_app import Services, assemble, new_event_loop, shutdown
from bot.settings import Settings
from handlers.core.events import ProposalApproved
from handlers.core.model import (
    DEFAULT_ROSTER,
    Action,
    Actor,
    ChatLine,
    Conclusion,
    Decision,
    Detection,
    ModeratorView,
    Proposal,
    TurnMeta,
)
from handlers.ports import (
    DebaterOutput,
    ModeratorUnavailable,
    TaskRequest,
    TurnRequest,
)
from tests.fakes.discord_loopback import redirect_to
from tests.fakes.discord_spec import VIOLATES
from tests.fakes.fake_discord import report_spawned, spawn
from tools.store.db import Database

ROOT = Path(__file__).resolve().parents[1]

FIELDS = (
    "p50_ms",
    "p95_ms",
    "p95_ms_at_100",
    "p95_ms_paced",
    "cpu_ms_per_turn",
    "cpu_ms_per_extra_turn",
    "cpu_ms_per_debate_setup",
    "rest_calls_per_turn",
    "sqlite_writes_per_turn",
    "rss_mb_per_debate",
)
ROUNDS = 5  # ten turns per debate
PACED_SIZE, PACED_ROUNDS, PACED_THINK_S = 50, 3, 2.0
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
_LITERALS = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")
WORDS = ["캐시", "계층", "운영", "부담", "Redis", "LRU", "cache", "결정", "근거", "trade-off"]


# ---- instant stand-ins -------------------------------------------------------------


class Marks:
    """When each debater was asked and answered, per (debate, turn)."""

    def __init__(self) -> None:
        self.asked: dict[tuple[int, int], float] = {}
        self.answered: dict[tuple[int, int], float] = {}
        self.chars: list[int] = []

    def overheads_ms(self) -> list[float]:
        """Answer of turn n to the ask of turn n+1, for every debate."""
        return [
            (asked - self.answered[(debate, turn - 1)]) * 1000
            for (debate, turn), asked in self.asked.items()
            if (debate, turn - 1) in self.answered
        ]


class InstantDebater:
    """Answers at once (or after `think_s` on average) with 1,500-3,000 characters."""

    def __init__(self, seat: str, marks: Marks, rng: random.Random, think_s: float) -> None:
        self.seat, self._marks, self._rng, self._think_s = seat, marks, rng, think_s
        # Made before the run: the debaters' own time is not what is measured.
        self._replies = [_reply_text(rng) for _ in range(32)]

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Reply to the request instantly."""
        self._marks.asked[(request.debate_id, request.turn)] = time.perf_counter()
        if self._think_s:  # the paced run: a debater's own time, not counted
            await asyncio.sleep(self._think_s * (0.5 + self._rng.random()))
        opinion, text = self._rng.choice(self._replies)
        self._marks.chars.append(len(opinion))
        meta = TurnMeta(model="bench", input_tokens=500, output_tokens=700, cost_usd=0.01)
        self._marks.answered[(request.debate_id, request.turn)] = time.perf_counter()
        return DebaterOutput(text=text, raw=text, meta=meta)

    async def forget(self, debate_id: int) -> None:
        """Nothing kept."""


def _reply_text(rng: random.Random) -> tuple[str, str]:
    """An opinion of 1,500-3,000 characters and the reply carrying it."""
    size = rng.randint(1500, 3000)
    opinion = " ".join(rng.choice(WORDS) for _ in range(size // 3))[:size]
    return opinion, json.dumps({"opinion": opinion, "stance": "partial"}, ensure_ascii=False)


class InstantModerator:
    """Continues until the round limit; concludes with one line."""

    async def detect(self, window: tuple[ChatLine, ...], language: str = "") -> Detection:
        """Never used: proposals are made directly."""
        return Detection(debate_worthy=False)

    async def judge(self, view: ModeratorView) -> Decision:
        """Continue."""
        return Decision(action=Action.CONTINUE, summary=f"after turn {view.debate.floor.turns}")

    async def conclude(self, view: ModeratorView) -> Conclusion:
        """A one-line Conclusion."""
        return Conclusion(decision="bench conclusion", agreed=("a",), open_issues=("b",))

    async def perform(self, request: TaskRequest) -> str:
        """No tasks: the format's fallback."""
        raise ModeratorUnavailable(request.task)


# ---- one size, in a child process ---------------------------------------------------------


def thread_cpu_s() -> dict[str, float]:
    """CPU seconds (user + system) of each live thread of this process, by thread name."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    tick = os.sysconf("SC_CLK_TCK")
    found: Counter[str] = Counter()
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended meanwhile
        name = re.sub(r"_\d+$", "_n", names.get(int(task.name), "other"))
        found[name] += (int(fields[11]) + int(fields[12])) / tick
    return dict(found)


def rss_mb(field: str = "VmRSS") -> float:
    """This process's resident memory (VmHWM: its peak since the last `reset_peak_rss`)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return 0.0


def reset_peak_rss() -> None:
    """Start VmHWM afresh (Linux: 5 to clear_refs), so the peak is read once at the end
    instead of sampled during the run (a sampler's CPU would count as the bot's)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


async def fake_calls(http: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
    """Every REST call the fake answered so far."""
    async with http.get(f"{base}/_fake/calls") as response:
        calls: list[dict[str, Any]] = await response.json()
        return calls


async def start_bot(
    world: dict[str, Any], folder: Path, marks: Marks, rounds: int, think_s: float
) -> tuple[DebateBot, Services, asyncio.Task[None]]:
    """The real composition root with instant debaters, logged in to the fake."""
    settings = Settings.model_validate(
        {
            "DISCORD_TOKEN": world["token"],
            "DEBATE_CHANNEL_IDS": world["channel_id"],
            "DATABASE_PATH": folder / "bench.sqlite3",
            "DATA_DIR": folder,
            "LOCAL_WIKI_DIR": folder / "wiki",
            "MAX_ROUNDS": rounds,
            "BUDGET_PAUSE": False,  # the bench has nobody to answer a pause
        }
    )
    services = Services(db=await Database.open(str(settings.DATABASE_PATH)))
    rng = random.Random(7)
    debaters = {
        member.backend: InstantDebater(member.id, marks, rng, think_s) for member in DEFAULT_ROSTER
    }

    async def ready(bot: DebateBot) -> None:  # as bot.root.discord_app's serve starts the bot
        await assemble(bot, settings, services, moderator=InstantModerator(), debaters=debaters)

    async def close() -> None:
        await shutdown(services)

    bot = DebateBot(on_ready_hook=ready, on_close_hook=close, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(world["token"]))
    await asyncio.wait_for(bot.wait_until_ready(), 20)
    return bot, services, task


async def run_size(
    size: int, rounds: int, think_s: float = 0.0, probe: bool = False
) -> dict[str, Any]:
    """Run `size` debates at once; the figures of this size (with `probe`, SQLite's
    statements counted as well, whose CPU makes that run's CPU no figure)."""
    fake, world = await spawn()
    redirect_to(world["base_url"])
    marks = Marks()
    writes: Counter[str] = Counter()
    statements: Counter[str] = Counter()

    def count(sql: str) -> None:  # a bench's probe on the connection (kept cheap: it runs
        head = " ".join(sql[:90].split())  # on the database thread, whose CPU is counted)
        verb = head.split(" ", 1)[0].upper()
        writes[verb] += 1
        if verb in WRITES:
            statements[_LITERALS.sub("?", head)[:60]] += 1

    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot, services, task = await start_bot(world, Path(tmp), marks, rounds, think_s)
            if probe:
                await services.db._conn.set_trace_callback(count)
            async with aiohttp.ClientSession() as http:
                before = len(await fake_calls(http, world["base_url"]))
                cpu0, threads0 = os.times(), thread_cpu_s()  # this process is the bot
                figures = await _debates(services, world, size)
                cpu1, threads1 = os.times(), thread_cpu_s()
                user_s, sys_s = cpu1.user - cpu0.user, cpu1.system - cpu0.system
                cpu_s = user_s + sys_s
                calls = (await fake_calls(http, world["base_url"]))[before:]
            figures["wall_s"] = time.perf_counter() - figures.pop("t0")
            await bot.close()
            await task
            await report_spawned(world["base_url"])
    finally:
        fake.terminate()
        fake.wait(10)
    turns = len(marks.answered)
    overheads = sorted(marks.overheads_ms())
    routes = Counter(f"{c['method']} {c['route']}" for c in calls)
    return figures | {
        "size": size,
        "think_s": think_s,
        "turns": turns,
        "p50_ms": statistics.median(overheads),
        "p95_ms": _percentile(overheads, 95),
        "max_ms": overheads[-1],
        "rest_calls_per_turn": len(calls) / turns,
        "rest_target": math.ceil(statistics.mean(marks.chars) / 6000) + 2,
        "routes": {route: n / turns for route, n in routes.most_common()},
        "probed": probe,
        "sqlite_writes_per_turn": sum(writes[w] for w in WRITES) / turns,
        "cpu_ms_per_turn": cpu_s * 1000 / turns,
        "cpu_sys_share": sys_s / cpu_s if cpu_s else 0.0,  # in the kernel: sockets, fsync
        "sqlite_commits_per_turn": writes["COMMIT"] / turns,
        "writes_by_statement": {k: n / turns for k, n in statements.most_common()},
        "cpu_ms_per_turn_by_thread": {
            name: round((spent - threads0.get(name, 0.0)) * 1000 / turns, 3)
            for name, spent in sorted(threads1.items(), key=lambda kv: -kv[1])
        },
    }


async def _debates(services: Services, world: dict[str, Any], size: int) -> dict[str, Any]:
    handler = services.handler
    assert handler is not None and services.wiki is not None
    owner = int(world["owner_id"])
    base_rss = rss_mb()
    reset_peak_rss()
    t0 = time.perf_counter()
    proposals = [_proposal(int(world["channel_id"]), owner, n) for n in range(size)]
    debates = await asyncio.gather(*(handler.propose(p) for p in proposals))
    ids = [d.id for d in debates if d is not None]
    for debate_id in ids:
        await handler.wait_idle(debate_id)  # the card is posted
    await asyncio.gather(*(handler.submit(i, ProposalApproved(Actor(user_id=owner))) for i in ids))
    for debate_id in ids:
        await handler.wait_idle(debate_id)
    await services.wiki.drained()
    ended = [(await handler.get(i)).phase.value for i in ids]
    assert ended == ["concluded"] * size, Counter(ended)
    peak = rss_mb("VmHWM")
    return {"t0": t0, "rss_mb_per_debate": max(peak - base_rss, 0.0) / size}


def _proposal(channel_id: int, owner: int, n: int) -> Proposal:
    return Proposal(
        channel_id=channel_id,
        topic=f"캐시 계층 선택 {n} — Redis vs in-process LRU",
        question="다음 분기 배포에서 어떤 캐시 계층을 쓸 것인가?",
        reason="bench",
        confidence=0.9,
        context="alice: Redis로 갈지 LRU로 갈지",
        people_ids=(owner,),
    )


def _percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile of sorted values."""
    rank = max(1, math.ceil(pct / 100 * len(values)))
    return values[rank - 1]


# ---- the parent: every size, the table, the JSON ----------------------------------------


def run_child(size: int, rounds: int, think_s: float = 0.0, probe: bool = False) -> dict[str, Any]:
    """One size in a fresh interpreter (its memory and event loop to itself)."""
    done = subprocess.run(
        [
            *(sys.executable, __file__, "--child", str(size)),
            *("--rounds", str(rounds), "--think-s", str(think_s)),
            *(("--probe",) if probe else ()),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        raise SystemExit(f"size {size} failed:\n{done.stderr[-3000:]}")
    for line in done.stderr.splitlines():  # the fake Discord's spec check, passed on
        if line.startswith(VIOLATES):
            print(line, file=sys.stderr)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def table(results: list[dict[str, Any]], counted: dict[str, Any]) -> str:
    """The readable table; `counted` is the run whose SQLite statements were counted."""
    head = (
        f"{'debates':>7} {'turns':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
        f"{'REST/turn':>10} {'target':>6} "
        f"{'RSS MB/debate':>13} {'wall s':>7} {'turns/s':>8} {'CPU ms/turn':>11}"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r['size']:>7} {r['turns']:>6} {r['p50_ms']:>8.2f} {r['p95_ms']:>8.2f} "
            f"{r['max_ms']:>8.2f} {r['rest_calls_per_turn']:>10.2f} {r['rest_target']:>6} "
            f"{r['rss_mb_per_debate']:>13.3f} {r['wall_s']:>7.2f} {r['turns'] / r['wall_s']:>8.1f}"
            f" {r['cpu_ms_per_turn']:>11.2f}"
        )
    reference = next((r for r in results if r["size"] == 50), results[-1])
    lines.append(f"\nREST calls per turn at {reference['size']} debates, by route:")
    lines += [f"  {n:6.2f}  {route}" for route, n in reference["routes"].items()]
    lines.append(f"\nCPU ms per turn at {reference['size']} debates, by thread:")
    lines += [f"  {n:6.2f}  {name}" for name, n in reference["cpu_ms_per_turn_by_thread"].items()]
    lines.append(
        f"\nSQLite writes per turn at {counted['size']} debates (a run of their own): "
        f"{counted['sqlite_writes_per_turn']:.2f}, commits "
        f"{counted['sqlite_commits_per_turn']:.2f}; by statement:"
    )
    lines += [f"  {n:6.2f}  {sql}" for sql, n in counted["writes_by_statement"].items()]
    return "\n".join(lines)


def split(long: dict[str, Any], short: dict[str, Any]) -> tuple[float, float]:
    """(CPU ms of one more turn, CPU ms of a debate's fixed work) from two runs of the same
    number of debates with different numbers of rounds."""
    total_long = long["cpu_ms_per_turn"] * long["turns"]
    total_short = short["cpu_ms_per_turn"] * short["turns"]
    per_turn = (total_long - total_short) / (long["turns"] - short["turns"])
    return per_turn, (total_short - per_turn * short["turns"]) / short["size"]


def summary(
    results: list[dict[str, Any]],
    paced: dict[str, Any],
    short: dict[str, Any] | None,
    counted: dict[str, Any],
) -> dict[str, float]:
    """Exactly the named fields: at 50 debates, p95 at 100, memory at the largest size."""
    by_size = {r["size"]: r for r in results}
    at50 = by_size.get(50, results[-1])
    at100 = by_size.get(100, results[-1])
    per_turn, setup = split(at50, short) if short else (-1.0, -1.0)
    return {
        "p50_ms": round(at50["p50_ms"], 3),
        "p95_ms": round(at50["p95_ms"], 3),
        "p95_ms_at_100": round(at100["p95_ms"], 3),
        "p95_ms_paced": round(paced["p95_ms"], 3),
        "cpu_ms_per_turn": round(at50["cpu_ms_per_turn"], 3),
        "cpu_ms_per_extra_turn": round(per_turn, 3),
        "cpu_ms_per_debate_setup": round(setup, 3),
        "rest_calls_per_turn": round(at50["rest_calls_per_turn"], 3),
        "sqlite_writes_per_turn": round(counted["sqlite_writes_per_turn"], 3),
        "rss_mb_per_debate": round(at100["rss_mb_per_debate"], 3),
    }


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One run's figures with every number replaced by its median over `runs`."""
    merged = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, float):  # counts (size, turns) are the same in every run
            merged[key] = statistics.median(run[key] for run in runs)
    return merged


def spread(at50: list[dict[str, Any]], paced: list[dict[str, Any]]) -> str:
    """Each run's CPU per turn and p95s: how much the machine's load moved them."""
    cpu = ", ".join(f"{run['cpu_ms_per_turn']:.2f}" for run in at50)
    p95 = ", ".join(f"{run['p95_ms']:.1f}" for run in paced)
    return f"\nEach run: CPU ms/turn at {at50[0]['size']} debates: {cpu}; paced p95 ms: {p95}"


def main() -> None:
    """Run every size; print the table, or one JSON object with --json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--sizes", default="1,10,50,100", help="debates at once, per run")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds per debate")
    parser.add_argument("--no-paced", dest="paced", action="store_false", help="skip the paced run")
    parser.add_argument("--paced-size", type=int, default=PACED_SIZE, help="debates, paced run")
    parser.add_argument(
        "--paced-think-s", type=float, default=PACED_THINK_S, help="debaters' mean think time"
    )
    parser.add_argument(
        "--no-split", dest="split", action="store_false", help="skip the one-round run"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per size, interleaved; figures are medians"
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--think-s", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--probe", action="store_true", help="count SQLite's statements")
    args = parser.parse_args()
    if args.child is not None:
        with asyncio.Runner(loop_factory=new_event_loop) as runner:  # the bot's own loop
            run = run_size(args.child, args.rounds, args.think_s, args.probe)
            print(json.dumps(runner.run(run)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    runs: list[list[dict[str, Any]]] = [[] for _ in sizes]
    paced_runs: list[dict[str, Any]] = []
    short_runs: list[dict[str, Any]] = []
    split_size = 50 if 50 in sizes else sizes[-1]
    for _ in range(args.repeat):  # interleaved: a burst of load elsewhere hits every size
        for index, size in enumerate(sizes):
            runs[index].append(run_child(size, args.rounds))
        if args.paced:
            paced_runs.append(run_child(args.paced_size, PACED_ROUNDS, args.paced_think_s))
        if args.split and args.rounds > 1:
            short_runs.append(run_child(split_size, 1))
    counted = run_child(split_size, args.rounds, probe=True)  # the same statements every run
    results = [medians(size_runs) for size_runs in runs]
    paced = medians(paced_runs) if args.paced else {"p95_ms": -1}
    out = summary(results, paced, medians(short_runs) if short_runs else None, counted)
    assert tuple(out) == FIELDS
    if args.json:
        print(json.dumps(out))
        return
    print(table(results, counted))
    if args.repeat > 1:
        print(spread(runs[sizes.index(50)] if 50 in sizes else runs[-1], paced_runs))
    if short_runs:
        print(
            f"\nCPU at {split_size} debates: {out['cpu_ms_per_extra_turn']:.2f} ms per extra turn, "
            f"{out['cpu_ms_per_debate_setup']:.1f} ms per debate whatever its length"
        )
    if args.paced:
        print(
            f"\nPaced: {args.paced_size} debates whose debaters think {args.paced_think_s:g} s on "
            f"average: p50 {paced['p50_ms']:.2f} ms, p95 {paced['p95_ms']:.2f} ms, "
            f"CPU {paced['cpu_ms_per_turn']:.2f} ms/turn, REST/turn "
            f"{paced['rest_calls_per_turn']:.2f}"
        )


if __name__ == "__main__":
    main()
