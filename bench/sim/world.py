"""The outside world of one simulated debate: every fault, crash and answer is a fate drawn from
the seed, the debate and the call it befalls (not from one stream consumed in whatever order
concurrent calls happen to run), so a seed replays and debates run side by side."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from handlers.store_ports import StoreUnavailable
from tests.handlers.doubles import Crash

CRASH_P = 0.012  # per port call or committed step: the process dies (kill -9)
FAULT_P = 0.035  # per room or wiki call: it fails (Discord or Wiki.js answered 500, or 429)
LOST_P = 0.01  # per room or wiki call: it acted, then its answer was lost
SLOW_P = 0.02  # per room or wiki call: it is slow, or hangs until its own timeout
STORE_P = 0.004  # per stored step: the database is out of reach (before or after the write)
MAX_CRASHES = 3  # per debate: a process does not crash forever
HANG_S = 300.0  # a hanging call ends at its client's own timeout (aiohttp's default: 5 min)


class PortFault(Exception):
    """A call to Discord or the wiki failed; the engine retries it."""


class Throttled(PortFault):
    """Discord's 429, with the wait it asks for."""

    def __init__(self, name: str, retry_after: float) -> None:
        super().__init__(f"{name}: 429, retry after {retry_after:.1f} s")
        self.retry_after = retry_after


class LostAnswer(PortFault):
    """The call acted (a message was posted, a page written), then its answer was lost."""


@dataclass
class World:
    """One debate's fates: `roll(name, key)` is the same number for the same seed, debate,
    call and occurrence, whatever else runs meanwhile."""

    seed: int
    index: int
    crash_p: float = CRASH_P
    fault_p: float = FAULT_P
    crashes: int = 0
    faults: int = 0
    crashed: bool = False  # the process died: the run restarts it
    always_limited: bool = False  # Claude hits its usage limit on every turn
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    log: list[str] = field(default_factory=list)

    def rng(self, name: str, key: object = "") -> random.Random:
        """A generator of its own for the `n`-th call of `name` with `key`."""
        slot = (name, str(key))
        n = self.counts[slot]
        self.counts[slot] += 1
        return random.Random(f"{self.seed}:{self.index}:{name}:{key}:{n}")

    def roll(self, name: str, key: object = "") -> float:
        """One number in [0, 1) for this call."""
        return self.rng(name, key).random()

    def crash(self, name: str) -> None:
        """The process dies here (at most MAX_CRASHES times per debate)."""
        self.crashes += 1
        self.crashed = True
        raise Crash(name)

    def tick(self, name: str, key: object = "") -> None:
        """A port call or a committed step: the process may die at it."""
        self.log.append(name)
        if self.roll(f"tick:{name}", key) < self.crash_p and self.crashes < MAX_CRASHES:
            self.crash(name)

    def outside(self, name: str, key: object = "") -> tuple[str, float]:
        """The fate of a call to Discord or the wiki before it acts: ("", 0) it goes through,
        or ("fail"|"throttled"|"slow"|"hang", seconds)."""
        self.tick(name, key)
        rng = self.rng(f"outside:{name}", key)
        roll = rng.random()
        if roll < self.fault_p:
            self.faults += 1
            return ("throttled", rng.uniform(0.1, 30.0)) if roll < self.fault_p / 3 else ("fail", 0)
        if roll < self.fault_p + SLOW_P:
            return ("hang", HANG_S) if rng.random() < 0.3 else ("slow", rng.uniform(1.0, 90.0))
        return "", 0.0

    def acted(self, name: str, key: object = "") -> None:
        """After the call acted: its answer may be lost, or the process may die."""
        roll = self.roll(f"acted:{name}", key)
        if roll < LOST_P:
            self.faults += 1
            raise LostAnswer(f"{name}: acted, then the answer was lost")
        if roll < LOST_P + self.crash_p / 2 and self.crashes < MAX_CRASHES:
            self.crash(f"{name} (after acting)")

    def store(self, name: str, key: object = "", *, after: bool = False) -> None:
        """A stored step: the database may be out of reach (`after`: the write landed first)."""
        if self.roll(f"store:{name}:{after}", key) < STORE_P:
            self.faults += 1
            raise StoreUnavailable(f"simulated: the database went away ({name})")
