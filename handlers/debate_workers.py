"""One worker per debate: it runs the debate's stored effects in order, and each event an
effect yields goes through `submit` (transition, store, then run the new effects).

A step is stored (state, new turn, effects) in one transaction before any effect runs,
and an effect that yields an event is completed in the same transaction that stores
the event's step. So a crash between any two steps resumes from SQLite with nothing
lost and nothing done twice (an effect interrupted mid-way runs again; the ports make
a repeat harmless).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

from handlers.core.admission import Submitted, admits
from handlers.core.effects import AskDebater, Conclude, Effect, Judge, RunTask
from handlers.core.events import Event, ProposalApproved, ProposalDeclined, ProposalExpired
from handlers.core.model import Debate, Phase
from handlers.core.state_machine import transition
from handlers.core.turns.steps import expects
from handlers.effects_runner import EffectRunner
from handlers.leasing import ACTING_FOR, LeaseGuard, LeaseLost, patiently
from handlers.ports import Clock
from handlers.retrying import Retry, retrying
from handlers.store_ports import Debates, EffectQueue

log = logging.getLogger(__name__)

EFFECT_ATTEMPTS = 5  # an effect that keeps failing is retried, then left for the next start
EFFECT_BACKOFF_S, EFFECT_BACKOFF_MAX_S = 2.0, 60.0  # 2, 4, 8, 16 s between EFFECT_ATTEMPTS
# Any failure but a lost lease; a longer wait when the service said how long (a 429's
# `retry_after`, as discord.py's RateLimited carries it).
EFFECT_RETRY = Retry(
    on=lambda exc: not isinstance(exc, LeaseLost),
    attempts=EFFECT_ATTEMPTS,
    first_s=EFFECT_BACKOFF_S,
    longest_s=EFFECT_BACKOFF_MAX_S,
)
EFFECT_BATCH = 16  # pending effects read at once; a batch ends early at an effect's event
T = TypeVar("T")


class _Outcome(enum.Enum):
    """How one effect ended."""

    DONE = "done"  # completed, nothing new stored
    EVENT = "event"  # its event's step (and new effects) stored
    FAILED = "failed"  # kept failing: left stored for the next start


class DebateWorkers:
    """Each debate's worker and its lock; the state is read from the store. The debate
    service (handlers.debate_handler) is these workers with the front ends' commands."""

    def __init__(
        self,
        debates: Debates,
        effects: EffectQueue,
        runner: EffectRunner,
        clock: Clock,
        rng: random.Random,
        guard: LeaseGuard,
    ) -> None:
        self._debates = debates
        self._effects = effects
        self._runner = runner
        self._clock = clock
        self._rng = rng
        # Which debates this process may act on (see handlers.leasing).
        self._guard = guard
        self._locks: dict[int, asyncio.Lock] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        # The effects running now per debate (several at once in a parallel step): a step
        # that no longer wants one ends it (a stop ends the turn in flight, say).
        self._running: dict[int, dict[int, tuple[Effect, asyncio.Task[Event | None]]]] = {}

    async def resume_all(self) -> list[int]:
        """After a start: run every debate that still has stored effects."""
        ids = await self._effects.debates_with_work()
        for debate_id in ids:
            self.wake(debate_id)
        return ids

    async def wait_idle(self, debate_id: int) -> None:
        """Wait until the debate's worker has nothing left to run (for tests and shutdown)."""
        while (task := self._workers.get(debate_id)) is not None:
            await asyncio.wait([task])  # not cancelled with the waiter

    def is_idle(self, debate_id: int) -> bool:
        """True while no worker runs the debate's effects here."""
        return debate_id not in self._workers

    async def let_go(self, debate_id: int) -> None:
        """Stop acting on a debate (its lease was lost); what was not done stays stored."""
        self._dirty.discard(debate_id)
        task = self._workers.get(debate_id)
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def aclose(self) -> None:
        """Stop every worker; what was not done stays stored for the next start."""
        for debate_id in list(self._workers):
            await self.let_go(debate_id)

    async def _step(
        self,
        debate_id: int,
        event: Event,
        *,
        completing: int | None = None,
        inbox_id: int | None = None,
    ) -> Submitted:
        """Admit, transition, store (marking the inbox command `inbox_id` done), then run."""
        async with self._locks.setdefault(debate_id, asyncio.Lock()):
            debate = await self._debates.load(debate_id)
            admission = admits(debate, event)
            step = transition(debate, event, self._clock.now(), self._rng)
            changed = step.debate != debate
            await self._debates.save_step(
                step.debate,
                step.effects,
                step.turn,
                self._clock.now(),
                completed_effect=completing,
                decided_by=_decider(event) if changed else None,
                command=inbox_id,
            )
        self._cancel_obsolete(debate_id, step.debate)
        self.wake(debate_id)
        return Submitted(admission, step.debate)

    def _cancel_obsolete(self, debate_id: int, debate: Debate) -> None:
        """End the effects in flight the new step no longer wants (a stop ends a debater's turn)."""
        for effect, task in list(self._running.get(debate_id, {}).values()):
            if not still_wanted(debate, effect):
                task.cancel()

    def wake(self, debate_id: int) -> None:
        """Run the debate's stored effects (one just claimed too), if this process holds it."""
        if not self._guard.holds(debate_id):
            return  # another process runs it, or will once it claims it
        self._dirty.add(debate_id)
        if debate_id not in self._workers:
            task = asyncio.create_task(self._work(debate_id), name=f"debate-{debate_id}")
            task.add_done_callback(report_crash)
            self._workers[debate_id] = task

    async def _work(self, debate_id: int) -> None:
        ACTING_FOR.set(debate_id)  # this task's, and the tasks' it starts: see handlers.leasing
        try:
            while True:
                self._dirty.discard(debate_id)
                pending = await self._patiently(
                    debate_id, lambda: self._effects.pending_effects(debate_id, EFFECT_BATCH)
                )
                if not pending:
                    if debate_id in self._dirty:
                        continue
                    return
                for index, (effect_id, effect) in enumerate(pending):
                    group = run_together(pending[index:])
                    if len(group) > 1:
                        outcome = await self._run_group(debate_id, group)
                        break  # the group's events stored new effects: read the queue afresh
                    outcome = await self._run_with_retries(debate_id, effect_id, effect)
                    if outcome is not _Outcome.DONE:
                        break  # an event stored new effects: read the queue afresh
                if outcome is _Outcome.FAILED:
                    return
        except* LeaseLost:
            log.warning("debate %s: lease lost; another process takes it over", debate_id)
        finally:
            self._workers.pop(debate_id, None)

    async def _run_group(self, debate_id: int, group: list[tuple[int, Effect]]) -> _Outcome:
        """A parallel step's asks, all at once; each answer is stored as it arrives."""
        # A task group: if one ask dies (the process is going down), the others are ended
        # too, and their stored asks run again at the next start.
        async with asyncio.TaskGroup() as asks:
            running = [
                asks.create_task(self._run_with_retries(debate_id, effect_id, effect))
                for effect_id, effect in group
            ]
        outcomes = [task.result() for task in running]
        return _Outcome.FAILED if _Outcome.FAILED in outcomes else _Outcome.EVENT

    async def _run_with_retries(self, debate_id: int, effect_id: int, effect: Effect) -> _Outcome:
        """Up to EFFECT_ATTEMPTS tries, waiting longer after each failure (then FAILED); an
        unreachable store is waited out, not counted as a failure of the effect."""

        def warn(exc: Exception, failures: int) -> None:
            # An outside service failing now and then is expected and retried: a warning.
            log.warning(
                "debate %s: effect %s failed (attempt %s): %r",
                debate_id,
                effect.kind,
                failures,
                exc,
            )

        try:
            return await retrying(
                lambda: self._patiently(
                    debate_id, lambda: self._run_one(debate_id, effect_id, effect)
                ),
                EFFECT_RETRY,
                sleep=self._clock.sleep,
                on_retry=warn,
            )
        except LeaseLost:
            raise
        except Exception:  # one that keeps failing is an error, with its traceback, once
            log.exception(
                "debate %s: effect %s failed %s times; left for the next start",
                debate_id,
                effect.kind,
                EFFECT_ATTEMPTS,
            )
        return _Outcome.FAILED

    async def _patiently(self, debate_id: int, call: Callable[[], Awaitable[T]]) -> T:
        return await patiently(debate_id, call, self._guard)

    async def _run_one(self, debate_id: int, effect_id: int, effect: Effect) -> _Outcome:
        if not self._guard.holds(debate_id):
            raise LeaseLost(debate_id)  # checked before every effect: see tools/store/leases
        # Read and started under the debate's lock: a step stored meanwhile (a stop) is either
        # read here, or finds the effect running and ends it (`_cancel_obsolete`).
        async with self._locks.setdefault(debate_id, asyncio.Lock()):
            debate = await self._debates.load(debate_id)
            if not still_wanted(debate, effect):  # nothing runs
                await self._effects.complete_effects(debate_id, [effect_id], self._clock.now())
                return _Outcome.DONE
            # A task of its own, so that a step can end it alone (a stop ends a debater's turn).
            task = asyncio.create_task(self._runner.run(debate, effect))
            self._running.setdefault(debate_id, {})[effect_id] = (effect, task)
        event = await self._ended_by_step(debate_id, effect_id, task)
        if event is None:
            await self._effects.complete_effects(debate_id, [effect_id], self._clock.now())
            return _Outcome.DONE
        # The event is in hand (a debater's paid reply, say): while the store is out of reach,
        # its save is what waits and is made again, not the effect (the debater is not asked
        # again). A save made again is safe: a step already stored ignores a repeated event.
        await self._patiently(debate_id, lambda: self._step(debate_id, event, completing=effect_id))
        return _Outcome.EVENT

    async def _ended_by_step(
        self, debate_id: int, effect_id: int, task: asyncio.Task[Event | None]
    ) -> Event | None:
        """An effect's outcome; None if a step ended it (see `_cancel_obsolete`)."""
        try:
            return await task
        except asyncio.CancelledError:
            if not task.cancelled() or asyncio.current_task().cancelling():  # type: ignore[union-attr]  # always inside a task
                raise
            return None  # ended by a step (a stop, say): the effect is obsolete
        finally:
            self._running.get(debate_id, {}).pop(effect_id, None)


def _decider(event: Event) -> int | None:
    """Who decided the card, recorded with the proposal (an expiry records 0: nobody)."""
    if isinstance(event, ProposalApproved | ProposalDeclined):
        return event.actor.user_id
    return 0 if isinstance(event, ProposalExpired) else None


def report_crash(task: asyncio.Task[None]) -> None:
    """Log a worker that died (what it had not done stays stored for the next start)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("worker %s died", task.get_name(), exc_info=task.exception())


def run_together(pending: list[tuple[int, Effect]]) -> list[tuple[int, Effect]]:
    """The asks at the head of the queue that belong to one step, and the moderator tasks run
    alongside them: they run at once (a delayed retry waits on its own)."""
    group: list[tuple[int, Effect]] = []
    step: tuple[int, str] | None = None
    for effect_id, effect in pending:
        if isinstance(effect, RunTask):
            group.append((effect_id, effect))
            continue
        if not isinstance(effect, AskDebater) or effect.delay_s > 0:
            break
        if step is not None and (effect.round, effect.step) != step:
            break
        step = (effect.round, effect.step)
        group.append((effect_id, effect))
    return group


def still_wanted(debate: Debate, effect: Effect) -> bool:
    """An effect that asks for an answer is dropped once the debate has moved on."""
    if isinstance(effect, AskDebater):
        return expects(debate, effect.seat, effect.turn)
    if isinstance(effect, Judge):
        return debate.phase is Phase.JUDGING and debate.floor.turns == effect.turn
    if isinstance(effect, RunTask):
        return effect.task in debate.moderation.tasks
    if isinstance(effect, Conclude):
        return debate.phase is Phase.CONCLUDING
    return True
