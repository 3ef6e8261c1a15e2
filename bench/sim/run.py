"""The run: debates in batches that share one process (the real engine, the real store and
the real GeminiModerator over the simulated world), the people's part, crashes and restarts,
and the invariants of every debate once it ends."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bench.sim import people
from bench.sim.checks import Driver, Paid, Seen, violations
from bench.sim.ports import SimDebater, SimGemini, SimRoom, SimStore, SimWiki
from bench.sim.world import World
from handlers import retrying
from handlers.core.i18n import Strings
from handlers.core.model import Backend, Debate, Participant, Phase
from handlers.debate_handler import DebateHandler, HandlerConfig
from handlers.rules_moderator import RulesModerator
from tests.doubles import FakeClock
from tests.handlers.doubles import Crash
from tools.gemini.core import GeminiModerator
from tools.store.db import Database
from tools.store.quota import ModeratorQuota

STEP_BUDGET = 60  # the people's steps (restarts included) a debate may take to end
SETTLE_TIMEOUT_S = 60.0
BATCHES = (1, 1, 2, 3)  # debates at once in one process
STALL_MS = 100.0  # no callback may hold the event loop longer (CPU time)
OPEN_TIMERS = "SELECT count(*) FROM polls WHERE debate_id = ? AND closed_at IS NULL"
_MARK = re.compile(r"«sim:(\d+)»")


@dataclass
class Tally:
    """What the run did and found."""

    debates: int = 0
    formats: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    crashes: int = 0
    faults: int = 0
    restarts: int = 0
    paid_repeats: int = 0
    steelman_turns: int = 0  # turns given as a steelman after a person asked for one
    refused: int = 0
    at_once: int = 0  # pairs of clicks or forms sent at the same moment
    meanwhile: int = 0  # people's actions while an answer was being handed over
    most_at_once: int = 0  # debates run side by side
    worst_stall_ms: float = 0.0
    violations: list[dict[str, Any]] = field(default_factory=list)


class Simulation:
    """One run: batches of debates, each batch in one process on one database."""

    def __init__(self, seed: int, target: str, tally: Tally) -> None:
        self.seed, self.target, self.tally = seed, target, tally
        self.clock = FakeClock()
        self.drivers: dict[int, Driver] = {}  # debate id -> its driver
        self.generation = 0  # the process: a restart is the next one
        self.background: set[asyncio.Task[None]] = set()
        self.handler: DebateHandler | None = None
        self.db: Database | None = None
        self.room = SimRoom(self, self.clock)
        self.wiki = SimWiki(self, self.clock, self.room)
        self.spare = World(seed, -1)  # the world of a prompt that names no debate

    # ---- what the doubles ask (bench.sim.ports.Sim) -----------------------------------
    def world_of(self, debate_id: int) -> World:
        driver = self.drivers.get(debate_id)
        return driver.world if driver is not None else self.spare

    def world_in(self, text: str) -> World:
        found = _MARK.search(text)
        index = int(found.group(1)) if found else -1
        return next((d.world for d in self.drivers.values() if d.index == index), self.spare)

    def member(self, debate_id: int, seat: str) -> Participant:
        driver = self.drivers.get(debate_id)
        roster = driver.roster if driver is not None else ()
        return next((m for m in roster if m.id == seat), Participant(seat, Backend.AG_RELAY, seat))

    def format_of(self, debate_id: int) -> str:
        driver = self.drivers.get(debate_id)
        return driver.fmt if driver is not None else "free"

    def answered(self, debate_id: int, turn: int, text: str) -> None:
        driver = self.drivers.get(debate_id)
        if driver is None:
            return
        driver.asked.setdefault(turn, []).append(text)
        if text:
            driver.paid.append(Paid(turn, text, self.generation))

    def meanwhile(self, debate_id: int) -> None:
        driver = self.drivers.get(debate_id)
        if driver is None or driver.finished:
            return
        self.tally.meanwhile += 1
        task = asyncio.create_task(people.meanwhile(self, driver))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    # ---- the process ------------------------------------------------------------------
    async def start(self) -> None:
        """A process: the real engine on the store, the world's doubles for the rest."""
        self.db = await Database.open(self.target)
        rng = random.Random(f"{self.seed}:process:{self.generation}")
        moderator = GeminiModerator(
            SimGemini(self),
            ModeratorQuota(self.db, 10**9),
            language="ko",
            sleep=self.clock.sleep,
            rules=RulesModerator(Strings("ko")),
        )
        self.handler = DebateHandler(
            SimStore(self.db, self).ports(),
            moderator,
            dict.fromkeys(Backend, SimDebater(self, self.clock)),
            self.wiki,
            self.room,
            self.clock,
            random.Random(rng.random()),
            HandlerConfig(
                max_rounds=rng.randint(1, 3),
                roster=people.SEATS[:2],
                budget_pause=rng.random() < 0.5,
                poll_hours=rng.choice([0, 0, 1]),
                budget_usd=rng.choice([0.0, 0.0, 0.03]),
            ),
        )

    async def stop(self) -> None:
        """The process ends: its workers, its people's actions in flight, its handles."""
        for task in list(self.background):
            task.cancel()
        await asyncio.gather(*self.background, return_exceptions=True)
        if self.handler is not None:
            await self.handler.aclose()
        if self.db is not None:
            await self.db.close()
        self.handler = self.db = None

    async def restart(self) -> None:
        """As after `kill -9`: everything in memory is gone; the next process resumes."""
        await self.stop()
        self.generation += 1
        self.tally.restarts += 1
        for driver in self.drivers.values():
            driver.world.crashed = False
        await self.start()
        await self.h.resume_all()

    @property
    def h(self) -> DebateHandler:
        assert self.handler is not None
        return self.handler

    # ---- the run ----------------------------------------------------------------------
    async def run(self, count: int, only: int | None = None) -> None:
        """Every debate of the run, in batches (or debate `only`, alone)."""
        indices = list(range(count)) if only is None else [only]
        sizes = random.Random(f"{self.seed}:batches")
        retrying.set_testing(True)  # the engine's retries as often as ever, on no clock's time
        try:
            while indices:
                size = sizes.choice(BATCHES) if only is None else 1
                batch, indices = indices[:size], indices[size:]
                self.tally.most_at_once = max(self.tally.most_at_once, len(batch))
                await self.batch(batch)
        finally:
            retrying.set_testing(False)

    async def batch(self, indices: list[int]) -> None:
        """Debates side by side in one process until each ends or waits on the people."""
        drivers = [people.driver(self.seed, index) for index in indices]
        await self.start()
        try:
            for driver in drivers:
                await people.propose(self, driver)
            for _ in range(STEP_BUDGET):
                if not await self.settle(drivers):
                    break
                waiting = []
                for driver in [d for d in drivers if not d.finished]:
                    debate = await self.h.get(driver.debate_id)
                    if debate.phase.is_terminal:
                        await self.finish(driver, debate)
                    else:
                        waiting.append((driver, debate))
                if not waiting:
                    break
                for driver, debate in waiting:
                    await people.outsider(self, driver, debate)
                waits = [await people.act(self, d, debate) for d, debate in waiting]
                if max(waits) > 0:
                    await self.let_time_pass(max(waits))
            for driver in drivers:
                if not driver.finished:
                    await self.unfinished(driver)
        except Exception as exc:  # a violation: the engine raised into its caller
            for driver in drivers:
                self.violation(driver, f"raised {exc!r}")
        finally:
            await self.stop()
            for driver in drivers:
                self.tally.debates += 1
                self.tally.crashes += driver.world.crashes
                self.tally.faults += driver.world.faults
                self.drivers.pop(driver.debate_id, None)

    async def settle(self, drivers: list[Driver]) -> bool:
        """Wait until every worker and the people's actions are idle; a death restarts the
        process, and so does an effect that kept failing (the next start runs it again)."""
        for _ in range(STEP_BUDGET):
            while self.background:
                await asyncio.gather(*self.background, return_exceptions=True)
            for driver in drivers:
                await asyncio.wait_for(self.h.wait_idle(driver.debate_id), SETTLE_TIMEOUT_S)
            stuck = [d for d in drivers if await self.h._effects.pending_effects(d.debate_id, 1)]
            if any(d.world.crashed for d in drivers) or stuck:
                await self.restart()
                continue
            if not self.background:
                return True
        for driver in drivers:
            if not driver.finished:
                self.violation(driver, "an effect fails at every start")
                driver.finished = True
        return False

    async def let_time_pass(self, seconds: float) -> None:
        """The clock moves on and the stored timers that came due fire (any debate's)."""
        self.clock.advance(seconds)
        with contextlib.suppress(Crash):  # the world it befell marked the process dead
            await self.h.fire_due_timers()

    async def unfinished(self, driver: Driver) -> None:
        """A debate the budget of steps did not end: allowed only while it waits on people."""
        debate = await self.h.get(driver.debate_id)
        if debate.phase is Phase.AWAITING_USER:
            self.tally.outcomes["waiting_on_people"] += 1
            await self.finish(driver, debate)
        else:
            self.violation(driver, f"did not end in {STEP_BUDGET} steps ({debate.phase})")

    async def finish(self, driver: Driver, debate: Debate) -> None:
        """The invariants of one ended debate."""
        driver.finished = True
        self.tally.outcomes[debate.phase.value] += debate.phase.is_terminal
        stored = await self.h._turns.last_turns(debate.id, 10_000)
        assert self.db is not None
        row = await self.db.fetch_one(OPEN_TIMERS, (debate.id,))
        seen = Seen(
            debate,
            stored,
            driver.asked,
            tuple(driver.paid),
            self.generation,
            int(row[0]) if row else 0,
            self.room,
            self.wiki,
        )
        for what in violations(seen):
            self.violation(driver, what)
        self.tally.steelman_turns += len(debate.steelman.turns)
        for turn in stored:
            given = driver.asked.get(turn.number, [])
            self.tally.paid_repeats += sum(1 for text in given if text and text != turn.text)

    def violation(self, driver: Driver, what: str) -> None:
        self.tally.violations.append(
            {
                "seed": self.seed,
                "debate": driver.index,
                "what": what,
                "last_calls": driver.world.log[-5:],
            }
        )


class ErrorLog(logging.Handler):
    """Every ERROR record of the run but the injected deaths' (a process killed is no error
    the product made)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, Crash) or _caused_by_crash(error):
            return
        self.records.append(f"{record.name}: {record.getMessage()[:200]} {error!r}"[:400])


def _caused_by_crash(error: BaseException | None) -> bool:
    while error is not None:
        if isinstance(error, Crash) or (
            isinstance(error, BaseExceptionGroup)
            and any(_caused_by_crash(e) for e in error.exceptions)
        ):
            return True
        error = error.__cause__ or error.__context__
    return False


@dataclass
class Stall:
    """The longest CPU time any one event-loop callback took, in ms, and which it was."""

    ms: float = 0.0
    where: str = ""


@contextmanager
def stalls() -> Iterator[Stall]:
    """Watch every event-loop callback (one that holds the loop stalls every debate and
    click; CPU time, so a busy machine does not count)."""
    worst = Stall()
    run = asyncio.events.Handle._run
    collecting = [0.0, 0.0]  # the garbage collector's CPU time so far, and when it began

    def collector(phase: str, info: dict[str, int]) -> None:
        # The collector stops the whole process wherever it runs: it is not the callback's.
        if phase == "start":
            collecting[1] = time.thread_time()
        else:
            collecting[0] += time.thread_time() - collecting[1]

    def timed(handle: asyncio.events.Handle) -> None:
        started, collected = time.thread_time(), collecting[0]
        try:
            run(handle)
        finally:
            spent = (time.thread_time() - started - (collecting[0] - collected)) * 1000
            if spent > worst.ms:
                worst.ms, worst.where = spent, repr(handle)[:300]

    asyncio.events.Handle._run = timed  # type: ignore[method-assign]  # times every callback to find the worst stall
    gc.callbacks.append(collector)
    try:
        yield worst
    finally:
        gc.callbacks.remove(collector)
        asyncio.events.Handle._run = run  # type: ignore[method-assign]  # asyncio's own, put back
