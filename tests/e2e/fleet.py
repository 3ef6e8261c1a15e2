"""Several processes on one PostgreSQL database against the World's fakes: a gateway
(`debate-room run` with GATEWAY_ONLY) and workers (`debate-room worker`), each a subprocess
started the way the World starts the bot, each with its own Claude config folder (so a kill
takes down exactly one worker and the CLIs it started)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field

from tests.e2e.harness import WAIT, World
from tests.fakes.discord_limits import walk
from tests.fakes.discord_world import Json
from tests.fakes.fake_anthropic import processes_with_env
from tools.store.db import Database

_FOOTER = re.compile(r"^(?:턴|Turn) (\d+) · .*sha256 ([0-9a-f]{12})$")
_REPLY = re.compile(r"FAKE REPLY \d+\b")
_LOG_ENTRY = re.compile(r"<!-- debate-room:entry \d+:round-log:(\d+) -->")
# Two Claude participants: every turn is a CLI child of the worker running the debate (a
# kill takes it down with the worker); AG through a worker has a test of its own.
PARTICIPANTS = "claude:claude-cli:Claude,claude-2:claude-cli:Claude B"
FLEET = {
    "PARTICIPANTS": PARTICIPANTS,
    "LEASE_SECONDS": "4",  # a killed worker's debates move on within seconds
    "WORKER_POLL_SECONDS": "0.3",
    "BUDGET_PAUSE": "false",
}


@dataclass
class Fleet:
    """The gateway (the World's `proc`) and the other processes (workers, a second
    gateway), by name."""

    world: World
    url: str
    workers: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)

    def env(self, name: str, **overrides: str) -> dict[str, str]:
        config = self.world.tmp / f"claude-config-{name}"
        env = self.world.env(**(FLEET | self.settings | overrides))
        env |= self.world.anthropic.cli_env(config)
        env["DATABASE_URL"] = self.url
        env["DATA_DIR"] = str(self.world.tmp / f"data-{name}")
        return env

    async def start_gateway(self, channels: list[str], *, only: bool = True) -> None:
        """`debate-room run` (`only`: it only receives events); returns once connected."""
        self.settings |= {"DEBATE_CHANNEL_IDS": ",".join(channels)}
        gateway_only = "true" if only else "false"
        extra = {"GATEWAY_ONLY": gateway_only, "DATABASE_URL": self.url}
        await self.world.start_bot(**(FLEET | self.settings | extra))

    def start_worker(self, name: str, **overrides: str) -> subprocess.Popen[bytes]:
        """`debate-room worker` as a subprocess (it claims debates as soon as it is up)."""
        return self._start(name, ["worker"], **overrides)

    async def start_another_gateway(self, name: str) -> None:
        """A second `debate-room run` with GATEWAY_ONLY beside the World's (a rolling deploy,
        `--scale`): another gateway session of the bot. Returns once it is connected."""
        fake = self.world.discord
        before = len(fake.live_sessions(fake.bot_user))
        proc = self._start(name, [], GATEWAY_ONLY="true")

        def connected() -> bool:
            return proc.poll() is not None or len(fake.live_sessions(fake.bot_user)) > before

        async with asyncio.timeout(WAIT), fake._session_change:  # the fake's own signal
            await fake._session_change.wait_for(connected)
        assert proc.poll() is None, self.log(name)

    def _start(self, name: str, command: list[str], **overrides: str) -> subprocess.Popen[bytes]:
        with (self.world.tmp / f"bot-{name}.log").open("wb") as log:
            proc = subprocess.Popen(  # a long-lived child, not awaited
                [sys.executable, "-m", "bot", *command],
                cwd=self.world.tmp,
                env=self.env(name, **overrides),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.workers[name] = proc
        return proc

    def kill_worker(self, name: str) -> None:
        """kill -9 the worker and every CLI it started (what a container's death takes down)."""
        proc = self.workers[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        for pid in processes_with_env(str(self.world.tmp / f"claude-config-{name}")):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def signal(self, name: str, signum: signal.Signals) -> None:
        """Send the worker's process group `signum` (SIGSTOP, SIGCONT: `docker pause`)."""
        os.killpg(self.workers[name].pid, signum)

    def log(self, name: str) -> str:
        return (self.world.tmp / f"bot-{name}.log").read_text(errors="replace")

    def cli_pids(self, name: str) -> list[int]:
        """The live CLI processes a worker started (the worker itself left out)."""
        marker = str(self.world.tmp / f"claude-config-{name}")
        return [pid for pid in processes_with_env(marker) if pid != self.workers[name].pid]

    def worker_of(self, owner: str) -> str:
        """The worker whose process wrote `owner` (host:pid:random) in the lease table."""
        pid = int(owner.split(":")[1])
        return next(name for name, proc in self.workers.items() if proc.pid == pid)

    def alive(self) -> list[str]:
        return [name for name, proc in self.workers.items() if proc.poll() is None]

    def stop(self) -> None:
        for name, proc in self.workers.items():
            if proc.poll() is None:
                self.kill_worker(name)


async def leases(url: str) -> dict[int, str]:
    """The debates' current lease holders, read from the shared database."""
    db = await Database.open(url)
    try:
        rows = await db.fetch_all("SELECT debate_id, owner FROM debate_leases")
        return {int(row[0]): str(row[1]) for row in rows}
    finally:
        await db.close()


async def lease_claims(url: str) -> list[tuple[int, int, str, int, int]]:
    """Every claim of the run: (debate, generation, owner, claimed_at, lapsed_at)."""
    db = await Database.open(url)
    try:
        rows = await db.fetch_all(
            "SELECT debate_id, generation, owner, claimed_at, lapsed_at"
            " FROM debate_lease_claims ORDER BY debate_id, generation"
        )
        return [(int(r[0]), int(r[1]), str(r[2]), int(r[3]), int(r[4])) for r in rows]
    finally:
        await db.close()


async def threads(url: str) -> dict[int, str]:
    """Each debate's thread id."""
    db = await Database.open(url)
    try:
        rows = await db.fetch_all(
            "SELECT debate_id, channel_id FROM room_messages WHERE key = ?", ("thread",)
        )
        return {int(row[0]): str(row[1]) for row in rows}
    finally:
        await db.close()


def assert_claims_never_overlap(claims: list[tuple[int, int, str, int, int]]) -> None:
    """Per debate, generations 1..n; a new owner claimed only after the lease it took over
    had lapsed (so two processes never held the same debate at once)."""
    by_debate: dict[int, list[tuple[int, int, str, int, int]]] = {}
    for claim in claims:
        by_debate.setdefault(claim[0], []).append(claim)
    for debate_id, taken in by_debate.items():
        assert [c[1] for c in taken] == list(range(1, len(taken) + 1)), (debate_id, taken)
        for claim in taken[1:]:
            assert claim[3] >= claim[4], f"debate {debate_id} claimed before its lease lapsed"


def cards(world: World, channels: list[str]) -> list[Json]:
    """The approval card in each channel, once every channel has one."""
    found = []
    for channel in channels:
        card = next(
            (
                m
                for m in world.bot_messages(channel)
                if any(
                    str(c.get("custom_id")).startswith("debate:open:")
                    for c in walk(m.get("components", []))
                )
            ),
            None,
        )
        if card is None:
            return []
        found.append(card)
    return found


def replies_shown(world: World, thread_ids: list[str]) -> Counter[str]:
    """How many times each debater reply ("FAKE REPLY <n>") was shown as a turn, over every
    thread (a turn's message is the one whose embed carries the turn footer)."""
    shown: Counter[str] = Counter()
    for thread in thread_ids:
        for message in world.bot_messages(thread):
            embeds = message.get("embeds", [])
            if not any(_FOOTER.match(str((e.get("footer") or {}).get("text", ""))) for e in embeds):
                continue
            for embed in embeds:
                shown.update(_REPLY.findall(str(embed.get("description", ""))))
    return shown


def round_log_sections(world: World, debate_id: int) -> Counter[int]:
    """How many times each turn's section landed in the debate's Round-Log."""
    page = next(
        (
            p
            for p in world.wiki.pages.values()
            if p.path.startswith(f"debates/{debate_id}-") and p.path.endswith("/round-log")
        ),
        None,
    )
    content = page.content if page is not None else ""
    return Counter(int(n) for n in _LOG_ENTRY.findall(content))
