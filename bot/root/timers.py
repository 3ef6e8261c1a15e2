"""The one timer driver: it sleeps until the next stored timer is due or the next card
expires, is woken when a timer or a card is stored, and fires what is due through the engine.
The Discord bot, the console and the processes sharing the debates all run it; nothing polls
the timers on an interval.

A process that shares the debates re-reads the timers every `safety_s` as well: a debate it
claims from another process comes with that process's timers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from handlers.core.effects import Effect
from handlers.core.model import Debate, Turn
from handlers.ports import Clock
from handlers.store_ports import Cards, Debates, StorePorts, StoreUnavailable, Timers

log = logging.getLogger(__name__)

RETRY_S = 30.0  # after a pass that failed (the database out of reach), the next one

Fire = Callable[[], Awaitable[list[int]]]
Wait = Callable[[float], Awaitable[None]]


class TimerDriver:
    """Fires the stored timers and expires the cards when due: one task, asleep until the
    earliest one."""

    def __init__(
        self,
        timers: Timers,
        clock: Clock,
        *,
        cards: Cards | None = None,
        safety_s: float | None = None,
        wait: Wait = asyncio.sleep,
    ) -> None:
        self._timers = timers
        self._cards = cards  # None: cards expire elsewhere (a test's driver of timers alone)
        self._clock = clock  # the engine's: the timers are set and judged by it
        self._safety_s = safety_s  # None: no other process sets this one's timers
        self._wait = wait  # the wall clock's wait (a test's own)
        self._nudged = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def watching(self, ports: StorePorts) -> StorePorts:
        """The ports as the engine should use them: a timer or a card stored wakes the driver."""
        debates = _NudgingDebates(ports.debates, self.nudge)
        return replace(ports, debates=debates, timers=_Nudging(ports.timers, self.nudge))

    def nudge(self) -> None:
        """Look at the timers again now (one was stored, or a debate was claimed)."""
        self._nudged.set()

    def start(self, fire: Fire) -> None:
        """Run: `fire` expires the cards due and hands each due timer's debate its event."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(fire), name="timer-driver")

    async def aclose(self) -> None:
        """Stop the driver (the timers stay stored for the next start)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self, fire: Fire) -> None:
        while True:
            self._nudged.clear()
            delay = self._safety_s
            # Read before the pass: a timer falling due during it is either fired by it, or
            # found after `now` below (never lost between the two reads).
            now = self._clock.now()
            try:
                await fire()
                upcoming = await self._next(now)
            except StoreUnavailable as exc:  # tried again after a while, or at the next nudge
                log.warning("timers not read: %s", exc)
                delay = min(delay or RETRY_S, RETRY_S)
            except Exception:  # the timer driver's boundary: one failed pass must not end it
                log.exception("timer pass failed")
                delay = min(delay or RETRY_S, RETRY_S)
            else:
                if upcoming is not None:
                    ahead = (upcoming - self._clock.now()).total_seconds()
                    delay = max(0.0, ahead) if delay is None else min(delay, max(0.0, ahead))
            await self._sleep(delay)

    async def _next(self, now: datetime) -> datetime | None:
        """The first timer due or card expiring after `now`, if any."""
        found = [await self._timers.next_due(now)]
        if self._cards is not None:
            found.append(await self._cards.next_expiry(now))
        return min((at for at in found if at is not None), default=None)

    async def _sleep(self, seconds: float | None) -> None:
        """Until `seconds` have passed (None: forever) or a nudge, whichever comes first."""
        waits: set[asyncio.Future[object]] = {asyncio.ensure_future(self._nudged.wait())}
        if seconds is not None:
            waits.add(asyncio.ensure_future(self._wait(seconds)))
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()
            await asyncio.gather(*waits, return_exceptions=True)


class _Nudging:
    """A Timers port that wakes the driver once a timer is stored."""

    def __init__(self, inner: Timers, nudge: Callable[[], None]) -> None:
        self._inner = inner
        self._nudge = nudge

    async def schedule_poll(self, debate_id: int, ends_at: datetime) -> None:
        """Store a poll's end time, then wake the driver."""
        await self._inner.schedule_poll(debate_id, ends_at)
        self._nudge()

    async def schedule_resume(self, debate_id: int, at: datetime) -> None:
        """Store when a limit pause ends (or the room is archived), then wake the driver."""
        await self._inner.schedule_resume(debate_id, at)
        self._nudge()

    async def due_timers(self, now: datetime) -> list[int]:
        """Debates whose timer is due and not yet done."""
        return await self._inner.due_timers(now)

    async def timer_done(self, debate_id: int, now: datetime) -> None:
        """The debate's timer that was due by `now` is done."""
        await self._inner.timer_done(debate_id, now)

    async def cancel_timer(self, debate_id: int, now: datetime) -> None:
        """The debate's timer never fires."""
        await self._inner.cancel_timer(debate_id, now)

    async def next_due(self, after: datetime) -> datetime | None:
        """When the earliest timer not yet done falls due after `after`."""
        return await self._inner.next_due(after)


class _NudgingDebates:
    """A Debates port that wakes the driver once a card is stored (it expires in time)."""

    def __init__(self, inner: Debates, nudge: Callable[[], None]) -> None:
        self._inner = inner
        self._nudge = nudge

    async def create(
        self, draft: Debate, ttl: timedelta, effects: Sequence[Effect]
    ) -> Debate | None:
        """Store a proposed debate, then wake the driver."""
        made = await self._inner.create(draft, ttl, effects)
        self._nudge()
        return made

    async def load(self, debate_id: int) -> Debate:
        """The debate's current state."""
        return await self._inner.load(debate_id)

    async def save_step(
        self,
        debate: Debate,
        effects: Sequence[Effect],
        turn: Turn | None,
        now: datetime,
        completed_effect: int | None = None,
        decided_by: int | None = None,
        command: int | None = None,
    ) -> None:
        """Store a transition's outcome (one transaction: the store's)."""
        await self._inner.save_step(
            debate, effects, turn, now, completed_effect, decided_by, command
        )
