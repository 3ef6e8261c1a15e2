"""Claude's credit (issue 33): what each seat cost so far, and limits as pauses, not failures.

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
from handlers.core.model import Backend, Debate, FailureKind, Phase
from handlers.core.steps import Step, ask_effect

# The pauses a limit makes: "limit" ends by itself at `resumes_at`, "login" once `claude auth
# login` is done, "credits" once usage credits are on; and the answers each pause takes
# (admission checks a button against them).
LIMIT_PAUSES = frozenset({"limit", "login", "credits"})
_PEOPLE_DECIDE = frozenset({"extend", "conclude", "consensus"})
PAUSE_CHOICES = {"budget": _PEOPLE_DECIDE, "converging": _PEOPLE_DECIDE} | dict.fromkeys(
    LIMIT_PAUSES, frozenset({"resume", "conclude"})
)
MIN_SEATS = 2  # a debate goes on without a stopped seat only while this many can speak
_PAUSED_BY = {FailureKind.LIMIT: "limit", FailureKind.AUTH: "login"}


def limit_step(debate: Debate, event: DebaterFailed, now: datetime) -> Step | None:
    """The pause a limit makes (None: not a limit, or a seat the debate goes on without)."""
    if event.failure is FailureKind.CREDITS:
        if event.seat in debate.benched:
            return None  # stopped already: its ask is skipped at once
        speaking = [p for p in debate.ids if p not in debate.benched and p != event.seat]
        return _paused(debate, "credits", event, None) if len(speaking) < MIN_SEATS else None
    why = _PAUSED_BY.get(event.failure)
    if why is None or debate.member(event.seat).backend is not Backend.CLAUDE_CLI:
        return None  # only the claude CLI reports limits (another seat fails as before)
    wait = event.retry_after if why == "limit" else None
    until = now + timedelta(seconds=wait) if wait is not None else None
    return _paused(debate, why, event, until)


def bench(debate: Debate, seat: str) -> tuple[Debate, tuple[Notify, ...]]:
    """Stop a refused seat for the rest of the debate (said once)."""
    if seat in debate.benched:
        return debate, ()
    notice = Notify("limits.credits_stopped", (("seat", seat),))
    return replace(debate, benched=(*debate.benched, seat)), (notice,)


def _paused(debate: Debate, why: str, event: DebaterFailed, until: datetime | None) -> Step:
    """Wait for the reset or the people; the step's asks are kept to run again."""
    paused = replace(debate, phase=Phase.AWAITING_USER, paused=why, resumes_at=until, tasks=())
    params = [("seat", event.seat)]
    if until is not None:
        params.append(("at", str(int(until.timestamp()))))
    effects: list[Effect] = [Notify(f"limits.{why}", tuple(params)), UpdateStatus(), AskBudget()]
    if until is not None:
        effects.append(ScheduleResume(until.isoformat()))
    return Step(paused, tuple(effects))


def resumed(debate: Debate, who: str = "") -> Step:
    """The limit reset, or Resume was pressed: the kept asks run again, stopped seats included."""
    going = replace(debate, phase=Phase.SPEAKING, paused="", resumes_at=None, benched=(), attempt=0)
    going = replace(going, asked=tuple(replace(a, attempt=0) for a in going.asked))
    notice = Notify("limits.resumed_by", (("user", who),)) if who else Notify("limits.resumed")
    asks = tuple(ask_effect(going, ask) for ask in going.asked)
    return Step(going, (notice, UpdateStatus(), *asks))


def cost_per_seat(debate: Debate) -> str:
    """`Claude $0.42 · AG $0.00`: what each seat's turns cost so far."""
    return " · ".join(f"{m.name} ${debate.spend.of(m.id):.2f}" for m in debate.roster)
