"""A participant's failed ask, for every format, pure: retried with backoff, its session
restarted, skipped, or the debate failed (handlers/core/turns/steps.py's machinery)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from handlers.core.effects import Notify
from handlers.core.ending.degraded import faltered
from handlers.core.events import DebaterFailed
from handlers.core.model import Debate, FailureKind, OpenAsk, Outcome
from handlers.core.shorten import shorten
from handlers.core.spending.limits import bench, limit_step
from handlers.core.turns.backoff import delay_s, within
from handlers.core.turns.steps import (
    Step,
    ask_effect,
    conclude,
    format_of,
    held_posts,
    open_asks,
    run_plan,
    with_asks,
)

MAX_RETRIES = 2  # a transient failure is retried this often before the ask is skipped
MAX_TIMEOUT_RETRIES = 1  # a silent debater gets one more chance
MAX_SKIPS = 2  # consecutive skipped asks before the debate fails
BACKOFF_S, BACKOFF_MAX_S = 30.0, 120.0  # a retried ask waits 30 s, then 60 s (MAX_RETRIES)
MAX_RETRY_AFTER_S = 900.0  # a rate limit's own retry-after is waited at most this long
# Failures a fresh session answers, once, with the notice that says so: a session gone, or one
# whose conversation outgrew the model's context window (a long debate).
_FRESH = {
    FailureKind.SESSION_MISSING: "debater.session_restarted",
    FailureKind.CONTEXT_FULL: "debater.context_full",
}


def failure(debate: Debate, event: DebaterFailed, now: datetime, rng: random.Random) -> Step:
    """Retry, restart the session, skip this participant, pause for a limit or the dollar
    cap, or fail the debate. What the failed call still cost goes on the seat's account."""
    if event.cost_usd > 0:
        debate = replace(debate, spend=debate.spend.spent(event.seat, event.cost_usd))
    paused = limit_step(debate, event, now)
    if paused is not None:
        return paused
    asks = open_asks(debate)
    ask = next(a for a in asks if (a.participant, a.turn) == (event.seat, event.turn))
    if event.failure is FailureKind.CREDITS:  # the debate goes on without the seat
        benched, notices = bench(debate, event.seat)
        return _skip(benched, ask, event, rng, notices)
    seat = (("seat", event.seat), ("kind", event.failure.value))
    if event.failure in _FRESH and not ask.fresh_session:
        fresh = replace(ask, fresh_session=True)
        again = with_asks(debate, _swap(asks, ask, fresh))
        notice = Notify(_FRESH[event.failure], seat)
        return Step(again, (notice, ask_effect(again, fresh)))
    if event.failure is FailureKind.CONTEXT_FULL:  # too long even when fresh: only this turn
        return _skip(debate, ask, event, rng)
    if event.failure.is_transient:
        limit = MAX_TIMEOUT_RETRIES if event.failure is FailureKind.TIMEOUT else MAX_RETRIES
        if ask.attempt < limit:
            delay = within(event.retry_after, 0.0, MAX_RETRY_AFTER_S)
            if delay is None:
                delay = delay_s(ask.attempt, BACKOFF_S, BACKOFF_MAX_S)
            retry = replace(ask, attempt=ask.attempt + 1)
            again = with_asks(debate, _swap(asks, ask, retry))
            params = (*seat, ("seconds", str(round(delay))))
            notice = Notify("debater.retrying", params)
            return Step(again, (notice, ask_effect(again, retry, delay)))
        return _skip(debate, ask, event, rng)
    detail = (*seat, ("detail", shorten(event.detail, 300)))
    fallen = faltered(debate, event.seat)
    failure_text = f"{event.seat}: {event.failure.value}"
    failed = replace(fallen, ending=replace(fallen.ending, failure=failure_text))
    return conclude(failed, Outcome.FAILED, Notify("debater.failed", detail))


def _swap(asks: tuple[OpenAsk, ...], old: OpenAsk, new: OpenAsk) -> tuple[OpenAsk, ...]:
    return tuple(new if a == old else a for a in asks)


def _skip(
    debate: Debate,
    ask: OpenAsk,
    event: DebaterFailed,
    rng: random.Random,
    stopped: tuple[Notify, ...] | None = None,
) -> Step:
    """Skip the failed ask; `stopped`: a stopped seat's, which never fails the debate."""
    skipped, debate = debate.floor.skipped + (stopped is None), faltered(debate, event.seat)
    params = (("seat", event.seat), ("kind", event.failure.value))
    if stopped is None and skipped >= MAX_SKIPS:
        failed = replace(
            debate, ending=replace(debate.ending, failure=f"{event.seat}: {event.failure.value}")
        )
        return conclude(failed, Outcome.FAILED, Notify("debater.failed_repeatedly", params))
    # A skipped ask counts as spoken so the round moves on; the relay stays as it was.
    waiting = tuple(a for a in open_asks(debate) if a != ask)
    asking = with_asks(debate, waiting)
    moved = replace(
        asking,
        floor=replace(
            asking.floor,
            skipped=skipped,
            spoken=(*debate.floor.spoken, event.seat),
        ),
    )
    notices = (Notify("debater.skipped", params),) if stopped is None else stopped
    return _going_on(moved, notices, rng)


def skipped_by(debate: Debate, who: str, rng: random.Random) -> Step:
    """The people skipped the turn being answered: each open ask counts as spoken (as a failed
    one skipped does, without counting toward failing the debate) and the debate goes on."""
    asks = open_asks(debate)
    seats = tuple(a.participant for a in asks)
    dropped = faltered(with_asks(debate, ()), *seats)
    moved = replace(
        dropped,
        floor=replace(
            dropped.floor,
            spoken=(*debate.floor.spoken, *seats),
            late=(*debate.floor.late, *asks),  # an answer already on its way is still kept
        ),
    )
    notices = tuple(Notify("debate.skipped_by", (("user", who), ("seat", s))) for s in seats)
    return _going_on(moved, notices, rng)


def _going_on(moved: Debate, notices: tuple[Notify, ...], rng: random.Random) -> Step:
    """The step without the skipped asks waits for the rest and its tasks, else moves on."""
    if open_asks(moved) or moved.moderation.tasks:
        return Step(moved, notices)
    step = run_plan(format_of(moved).answered(moved, rng))
    return Step(step.debate, (*notices, *held_posts(moved), *step.effects))
