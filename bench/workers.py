"""Benchmark: turns per second with 1, 2 and 4 workers on PostgreSQL.

Each worker is a real `debate-room worker` subprocess on one PostgreSQL database (a server
started from the machine's binaries, as the tests do), logged in to the loopback fake Discord
(its own process, as Discord is remote), its moderator the fake Gemini API. Its two debaters
are `claude` stand-ins (bench/cpu_claude.py): a child process that burns about 0.5 s of CPU per
turn, as the real CLI does, so the run is CPU-bound. Each worker runs one debater at a time
(CLAUDE_MAX_CONCURRENCY=1: a worker is one CPU's worth of debaters, as a container sized to one
core would be) and takes its share of the debates (WORKER_MAX_DEBATES). The debates are stored
as proposals with an approval in the inbox; the clock runs from then until every debate ended.

`turns_per_s_sqlite` is the same load on one process with the SQLite file (the default
deployment, `debate-room run`, built in this process around a logged-in client), with the
same one debater at a time.

Each size runs `--repeat` times, interleaved with the others, and the best run is kept: the
machine is shared, and the run least slowed by other work is the closest to the code's own
figure.

Run: .venv/bin/python bench/workers.py [--json] [--debates 8] [--rounds 2] [--workers 1,2,4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp

# `tests` is not installed; run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord.client import DebateBot
from bot.root.discord_app import Services, assemble, shutdown
from bot.settings import Settings
from handlers.core.effects import PostCard
from handlers.core.events import ProposalApproved
from handlers.core.kinds import Phase
from handlers.core.model import Actor, Debate, Proposal, Setup
from handlers.core.participants import parse_roster
from tests.fakes.discord_loopback import redirect_to, subprocess_env
from tests.fakes.fake_discord import report_spawned, spawn
from tests.fakes.fake_gemini import FakeGemini
from tests.postgres import PostgresServer, start_server
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.inbox import Inbox

ROOT = Path(__file__).resolve().parents[1]

PARTICIPANTS = "claude:claude-cli:Claude,claude-2:claude-cli:Claude B"
STUB = ROOT / "bench" / "cpu_claude.py"
ENDED = tuple(p.value for p in Phase if p.is_terminal)
READY_TIMEOUT_S = 60.0


@dataclass
class Rig:
    """What every run shares: the fake Discord's world, the fake Gemini, the server."""

    world: dict[str, Any]
    gemini: FakeGemini
    server: PostgresServer
    tmp: Path
    debates: int
    rounds: int
    channels: list[str]  # one per debate: one card waits in a channel at a time

    def settings(self) -> dict[str, str]:
        return {
            "DISCORD_TOKEN": self.world["token"],
            "GEMINI_API_KEY": "bench-key",
            "GOOGLE_GEMINI_BASE_URL": self.gemini.url,
            "CLAUDE_BIN": str(STUB),
            "CLAUDE_MAX_CONCURRENCY": "1",
            "CLAUDE_CODE_MAX_RETRIES": "0",
            "PARTICIPANTS": PARTICIPANTS,
            "MAX_ROUNDS": str(self.rounds),
            "BUDGET_PAUSE": "false",
            "RETRY_WAIT_SCALE": "0",
            "LOG_LEVEL": "INFO",
        }

    def proposal(self, n: int) -> Proposal:
        return Proposal(
            channel_id=int(self.channels[n]),
            topic=f"Bench topic {n}: cache layer",
            question="Redis or an in-process LRU?",
            reason="bench",
            confidence=0.9,
            context="owner: which cache?",
            people_ids=(int(self.world["owner_id"]),),
        )


async def store_debates(rig: Rig, db: Database) -> list[int]:
    """The proposals, stored as the gateway stores them (a card to post)."""
    store, now = SqliteStore(db), datetime.now(UTC)
    roster = parse_roster(PARTICIPANTS)
    ids = []
    for n in range(rig.debates):
        made = Debate(
            0, rig.proposal(n), Phase.PROPOSED, now, setup=Setup(rig.rounds, roster=roster)
        )
        debate = await store.create(made, timedelta(hours=1), (PostCard(),))
        assert debate is not None, "a channel per debate: nothing waits there yet"
        ids.append(debate.id)
    return ids


async def wait_ended(db: Database, count: int) -> None:
    """Until every debate has ended (a bench polls; the tests await events)."""
    marks = ", ".join("?" for _ in ENDED)
    sql = f"SELECT count(*) FROM debates WHERE phase IN ({marks})"
    while True:
        row = await db.fetch_one(sql, ENDED)
        if row is not None and int(row[0]) >= count:
            return
        await asyncio.sleep(0.1)


async def turns_of(db: Database) -> int:
    row = await db.fetch_one("SELECT count(*) FROM turns")
    return int(row[0]) if row else 0


def start_worker(rig: Rig, url: str, name: str, share: int) -> subprocess.Popen[bytes]:
    keep = ("PATH", "HOME", "LANG", "TMPDIR", "BENCH_BURN_SECONDS")
    env = subprocess_env(
        rig.world["base_url"], base={k: v for k, v in os.environ.items() if k in keep}
    )
    env |= rig.settings() | {
        "DATABASE_URL": url,
        "WORKER_MAX_DEBATES": str(share),
        "DATA_DIR": str(rig.tmp / name),
        "LOCAL_WIKI_DIR": str(rig.tmp / name / "wiki"),
    }
    with (rig.tmp / f"{name}.log").open("wb") as log:
        return subprocess.Popen(  # started before the clock runs
            [sys.executable, "-m", "bot", "worker"],
            cwd=rig.tmp,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


async def wait_ready(rig: Rig, name: str, proc: subprocess.Popen[bytes]) -> None:
    """Until the worker logged that it claims debates."""
    log, deadline = rig.tmp / f"{name}.log", time.monotonic() + READY_TIMEOUT_S
    while "claiming debates as" not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not start:\n{log.read_text(errors='replace')}")
        await asyncio.sleep(0.1)


def tree_cpu_s(pid: int) -> float:
    """CPU seconds of a process and of the children it has waited for (its CLI turns)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def machine_busy_s() -> float:
    """CPU seconds the whole machine spent busy (every process, ours or not)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    """One run's figures."""

    turns_per_s: float
    cpu_s_per_turn: float  # the workers and their debaters, per turn
    busy: float  # the machine's busy share over the run (0..1), whoever was busy


async def run_workers(rig: Rig, count: int) -> Run:
    """Turns per second with `count` workers on a fresh database."""
    url = await rig.server.new_database()
    share = math.ceil(rig.debates / count)
    procs = [start_worker(rig, url, f"w{count}-{n}", share) for n in range(count)]
    db = await Database.open(url)
    try:
        for n, proc in enumerate(procs):
            await wait_ready(rig, f"w{count}-{n}", proc)
        cpu0, busy0 = sum(tree_cpu_s(p.pid) for p in procs), machine_busy_s()
        start = time.perf_counter()
        ids = await store_debates(rig, db)
        owner = Actor(user_id=int(rig.world["owner_id"]), name="owner")
        for debate_id in ids:  # Open pressed on every card, as the gateway stores it
            await Inbox(db).put(debate_id, ProposalApproved(owner))
        await wait_ended(db, len(ids))
        elapsed = time.perf_counter() - start
        cpu = sum(tree_cpu_s(p.pid) for p in procs) - cpu0
        busy = (machine_busy_s() - busy0) / (elapsed * (os.cpu_count() or 1))
        turns = await turns_of(db)
        return Run(turns / elapsed, cpu / turns, busy)
    finally:
        await db.close()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(30)


async def run_sqlite(rig: Rig) -> float:
    """Turns per second on one process with the SQLite file (built here, like `run`)."""
    os.environ["GOOGLE_GEMINI_BASE_URL"] = rig.gemini.url
    redirect_to(rig.world["base_url"])
    folder = Path(tempfile.mkdtemp(prefix="sqlite-", dir=rig.tmp))  # a fresh file each run
    values: dict[str, Any] = rig.settings() | {
        "DATABASE_PATH": str(folder / "bench.sqlite3"),
        "DATA_DIR": str(folder),
        "LOCAL_WIKI_DIR": str(folder / "wiki"),
        "DEBATE_CHANNEL_IDS": rig.world["channel_id"],
    }
    values.pop("GOOGLE_GEMINI_BASE_URL")
    settings = Settings.model_validate(values)
    services = Services(db=await Database.open(str(settings.DATABASE_PATH)))

    async def ready(bot: DebateBot) -> None:
        await assemble(bot, settings, services)

    async def close() -> None:
        await shutdown(services)

    bot = DebateBot(on_ready_hook=ready, on_close_hook=close, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(rig.world["token"]))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), READY_TIMEOUT_S)
        assert services.handler is not None
        start = time.perf_counter()
        ids = await store_debates(rig, services.db)
        await services.handler.resume_all()  # the cards
        owner = Actor(user_id=int(rig.world["owner_id"]), name="owner")
        for debate_id in ids:
            await services.handler.submit(debate_id, ProposalApproved(owner))
        await wait_ended(services.db, len(ids))
        elapsed = time.perf_counter() - start
        return await turns_of(services.db) / elapsed
    finally:
        await bot.close()
        await task


async def add_channels(base_url: str, count: int) -> list[str]:
    """`count` text channels in the fake's guild, through its control API."""
    found = []
    async with aiohttp.ClientSession() as http:
        for n in range(count):
            async with http.post(f"{base_url}/_fake/channels", json={"name": f"bench-{n}"}) as made:
                found.append(str((await made.json())["id"]))
    return found


def copy_logs(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for log in source.glob("w*.log"):
        (target / log.name).write_bytes(log.read_bytes())


async def measure(args: argparse.Namespace) -> dict[str, float]:
    fake, world = await spawn()
    gemini = await FakeGemini(auto=True).start()
    server = await asyncio.to_thread(start_server)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            channels = await add_channels(world["base_url"], args.debates)
            rig = Rig(world, gemini, server, Path(tmp), args.debates, args.rounds, channels)
            runs: dict[int, list[Run]] = {}
            sqlite: list[float] = []
            for _ in range(args.repeat):  # interleaved: a burst of load hits every size alike
                for n in args.workers:
                    runs.setdefault(n, []).append(await run_workers(rig, n))
                sqlite.append(await run_sqlite(rig))
            # The best of the runs: the one least slowed by whatever else the machine ran.
            figures = {"turns_per_s_sqlite": max(sqlite)}
            for n, done in runs.items():
                best = max(done, key=lambda run: run.turns_per_s)
                figures[f"turns_per_s_{n}"] = best.turns_per_s
                figures[f"cpu_s_per_turn_{n}"] = best.cpu_s_per_turn
                figures[f"machine_busy_{n}"] = best.busy
            if args.logs:  # the workers' logs, for a look at where a turn's time goes
                await asyncio.to_thread(copy_logs, Path(tmp), Path(args.logs))
        await report_spawned(world["base_url"])
    finally:
        await asyncio.to_thread(server.stop)
        await gemini.stop()
        fake.terminate()
        fake.wait(10)
    if "turns_per_s_1" in figures and "turns_per_s_2" in figures:
        figures["scaling_2"] = figures["turns_per_s_2"] / figures["turns_per_s_1"]
    return {key: round(value, 3) for key, value in figures.items()}


def main() -> None:
    """Parse the arguments, run, print a table or JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--debates", type=int, default=8, help="debates per run")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per debate (2 turns each)")
    parser.add_argument("--workers", default="1,2,4", help="worker counts to run")
    parser.add_argument("--logs", default="", help="copy the workers' logs to this folder")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each size (best kept)")
    parser.add_argument("--burn", type=float, default=0.5, help="CPU seconds per debater turn")
    args = parser.parse_args()
    args.workers = [int(n) for n in args.workers.split(",") if n]
    os.environ["BENCH_BURN_SECONDS"] = str(args.burn)  # read by bench/cpu_claude.py
    load_before = os.getloadavg()[0]  # other work on the machine skews every figure
    figures = asyncio.run(measure(args))
    figures |= {"cores": os.cpu_count() or 0, "debates": args.debates, "rounds": args.rounds}
    figures |= {"load_avg_before": round(load_before, 2)}
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:22} {value}")


if __name__ == "__main__":
    main()
