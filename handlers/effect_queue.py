"""Rules of the handler's effect queue: which stored effects still run, and which run at once."""

from __future__ import annotations

import asyncio
import logging

from handlers.core.effects import AskDebater, Conclude, Effect, Judge, RunTask
from handlers.core.model import Debate, Phase
from handlers.core.steps import expects

log = logging.getLogger("handlers.debate_handler")


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
        return debate.phase is Phase.JUDGING and debate.turns == effect.turn
    if isinstance(effect, RunTask):
        return effect.task in debate.tasks
    if isinstance(effect, Conclude):
        return debate.phase is Phase.CONCLUDING
    return True
