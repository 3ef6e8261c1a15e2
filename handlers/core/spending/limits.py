"""Claude's credit: what each seat cost so far, and limits as pauses, not failures.

A usage limit pauses the debate until it resets (a stored timer, or the people's button), a
missing login until someone logs in, and a refusal nothing clears stops the seat, or pauses
when too few seats would be left. Never a retry loop: nothing asks again before the people or
the reset time say so. Pure.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from handlers.core.effects import AskBudget, Effect, Notify, ScheduleResume, UpdateStatus
from handlers.core.events import DebaterFailed
from handlers.core.model import Backend, Debate, FailureKind, OpenAsk, Phase
from handlers.core.turns.backoff import within
from handlers.core.turns.steps import LIMIT_PAUSES, STEP_PAUSES, Step, ask_effect, with_asks

__all__ = ["LIMIT_PAUSES", "PAUSE_CHOICES", "bench", "limit_step", "resumed"]

# The answers each pause takes (admission checks a button against them).
_PEOPLE_DECIDE = frozenset({"extend", "conclude", "consensus"})
PAUSE_CHOICES = {
    "budget": _PEOPLE_DECIDE,
    # Mid-step, some seats not yet heard: no consensus to declare, only more budget or an end.
    "spent": frozenset({"extend", "conclude"}),
    "converging": _PEOPLE_DECIDE,
} | dict.fromkeys(LIMIT_PAUSES, frozenset({"resume", "conclude"}))
MIN_SEATS = 2  # a debate goes on without a stopped seat only while this many can speak
MIN_RESET_WAIT_S = 60.0  # a limit pause lasts at least this long
MAX_RESET_WAIT_S = 7 * 24 * 3600.0  # and at most a week
UNKNOWN_RESET_WAIT_S = 3600.0  # a limit with no usable reset time is tried again after this
_PAUSED_BY = {FailureKind.LIMIT: "limit", FailureKind.AUTH: "login", FailureKind.BUDGET: "spent"}


def limit_step(debate: Debate, event: DebaterFailed, now: datetime) -> Step | None:
    """The pause a limit makes (None: not a limit, or a seat the debate goes on without)."""
    if event.failure is FailureKind.CREDITS:
        if event.seat in debate.spend.benched:
            return None  # stopped already: its ask is skipped at once
        speaking = [p for p in debate.ids if p not in debate.spend.benched and p != event.seat]
        return _paused(debate, "credits", event, None) if len(speaking) < MIN_SEATS else None
    why = _PAUSED_BY.get(event.failure)
    if why is None or debate.member(event.seat).backend is not Backend.CLAUDE_CLI:
        return None  # only the claude CLI reports limits (another seat fails as before)
    wait = reset_wait(event.retry_after) if why == "limit" else None
    until = now + timedelta(seconds=wait) if wait is not None else None
    return _paused(debate, why, event, until)


def reset_wait(seconds: float | None) -> float:
    """The wait until a limit resets, as the engine takes it: at least a minute (a reset
    already past, or one the clocks disagree on, is tried again shortly, not at once), at
    most a week (the longest of Claude's windows; a larger figure is no reset time anyone
    can wait for), an hour when no usable figure came (Resume is there sooner)."""
    wait = within(seconds, MIN_RESET_WAIT_S, MAX_RESET_WAIT_S)
    return UNKNOWN_RESET_WAIT_S if wait is None else wait


def bench(debate: Debate, seat: str) -> tuple[Debate, tuple[Notify, ...]]:
    """Stop a refused seat for the rest of the debate (said once)."""
    if seat in debate.spend.benched:
        return debate, ()
    notice = Notify("limits.credits_stopped", (("seat", seat),))
    return replace(debate, spend=replace(debate.spend, benched=(*debate.spend.benched, seat))), (
        notice,
    )


def _paused(debate: Debate, why: str, event: DebaterFailed, until: datetime | None) -> Step:
    """Wait for the reset or the people. The failed ask is kept, paused, to run again; the
    step's other asks and the moderator's tasks beside them go on, and what they give is kept
    as it arrives. A second seat's limit during the pause joins it: the pause ends at the
    later reset, its buttons stay as shown."""
    asks = tuple(
        replace(a, paused=True) if (a.participant, a.turn) == (event.seat, event.turn) else a
        for a in debate.floor.asked
    )
    params = [("seat", event.seat)]
    if until is not None:
        params.append(("at", str(int(until.timestamp()))))
    notice = Notify(f"limits.{why}", tuple(params))
    if debate.phase is Phase.AWAITING_USER and debate.people.paused in STEP_PAUSES:
        later = _later(debate.spend.resumes_at, until) if debate.people.paused == "limit" else None
        joined = replace(
            debate,
            floor=replace(debate.floor, asked=asks),
            spend=replace(debate.spend, resumes_at=later),
        )
        unmoved = later is None or later == debate.spend.resumes_at
        timer = () if later is None or unmoved else (ScheduleResume(later.isoformat()),)
        return Step(joined, (notice, UpdateStatus(), *timer))
    paused = replace(
        debate,
        phase=Phase.AWAITING_USER,
        floor=replace(debate.floor, asked=asks),
        people=replace(debate.people, paused=why, pauses=debate.people.pauses + 1),
        spend=replace(debate.spend, resumes_at=until),
    )
    effects: list[Effect] = [notice, UpdateStatus(), AskBudget()]
    if until is not None:
        effects.append(ScheduleResume(until.isoformat()))
    return Step(paused, tuple(effects))


def _later(kept: datetime | None, new: datetime | None) -> datetime | None:
    """The later of two reset times, or the one there is (None: the people resume it)."""
    if kept is None or new is None:
        return kept or new
    return max(kept, new)


def resumed(debate: Debate, who: str = "", *, unbench: bool = True) -> Step:
    """The limit reset, or Resume was pressed: the paused asks run again, stopped seats
    included (`unbench`: a budget's extension leaves them stopped); an ask still being
    answered goes on as it was."""
    legacy = not any(a.paused for a in debate.floor.asked)  # stored before asks were marked: all
    again = tuple(a for a in debate.floor.asked if a.paused or legacy)
    asks = tuple(_unpaused(a) if a in again else a for a in debate.floor.asked)
    going = with_asks(
        replace(
            debate,
            phase=Phase.SPEAKING,
            people=replace(debate.people, paused=""),
            spend=replace(
                debate.spend, resumes_at=None, benched=() if unbench else debate.spend.benched
            ),
        ),
        asks,
    )
    notice = Notify("limits.resumed_by", (("user", who),)) if who else Notify("limits.resumed")
    effects = tuple(ask_effect(going, _unpaused(ask)) for ask in again)
    return Step(going, (notice, UpdateStatus(), *effects))


def _unpaused(ask: OpenAsk) -> OpenAsk:
    """A paused ask, asked afresh."""
    return replace(ask, paused=False, attempt=0)


def cost_per_seat(debate: Debate) -> str:
    """`Claude $0.42 · AG $0.00`: what each seat's turns cost so far."""
    return " · ".join(f"{m.name} ${debate.spend.of(m.id):.2f}" for m in debate.setup.roster)
