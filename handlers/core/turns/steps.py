"""The engine's step machinery, for every format, pure: open asks, answers stored as they
arrive, and the format asked what follows a finished step (retries and skips per participant
are handlers/core/turns/failures.py's)."""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, replace
from datetime import datetime

from handlers.core.effects import (
    AppendRoundLog,
    AskBudget,
    AskDebater,
    AskUser,
    Conclude,
    Effect,
    Judge,
    Notify,
    PostTurn,
    RunTask,
    UpdateStatus,
    WritePage,
    WriteWorkingDocument,
)
from handlers.core.ending.degraded import fell_back, honest
from handlers.core.events import ReplyReceived, TaskDone
from handlers.core.formats import format_named
from handlers.core.formats.base import Format, with_output
from handlers.core.formats.keys import task_named
from handlers.core.formats.plans import AskStep, EndStep, JudgeStep, PeopleStep, Plan, TaskStep
from handlers.core.model import Debate, ModeratorSource, OpenAsk, Outcome, Phase, Turn
from handlers.core.moderation.bounds import QUESTION_CHARS
from handlers.core.poll.stalemate import reporting, stuck_at_limit
from handlers.core.shorten import shorten
from handlers.core.wiki.actions import Refusal, apply_action


@dataclass(frozen=True)
class Step:
    """The outcome of one transition: the new state, a turn to store, effects to run."""

    debate: Debate
    effects: tuple[Effect, ...] = ()
    turn: Turn | None = None


def format_of(debate: Debate) -> Format:
    """The debate's format."""
    return format_named(debate.setup.format)


# The pauses a seat's limit makes mid-step: "limit" ends by itself at `resumes_at`, "login"
# once `claude auth login` is done, "credits" once usage credits are on. The step stays open
# through them: the other seats' answers still arrive and are kept.
LIMIT_PAUSES = frozenset({"limit", "login", "credits"})
# "spent": a seat's turn stopped at what was left of the people's dollar budget (the claude
# CLI's own cap); the people decide as at the budget, and the step stays open meanwhile too.
STEP_PAUSES = LIMIT_PAUSES | {"spent"}


def step_open(debate: Debate) -> bool:
    """True while the current step's asks are out: speaking, or paused by a seat's limit
    or its dollar cap."""
    return debate.phase is Phase.SPEAKING or (
        debate.phase is Phase.AWAITING_USER and debate.people.paused in STEP_PAUSES
    )


def open_asks(debate: Debate) -> tuple[OpenAsk, ...]:
    """The answers the current step still waits for (a limit's paused asks included)."""
    return debate.floor.asked if step_open(debate) else ()


def awaited(debate: Debate) -> tuple[OpenAsk, ...]:
    """The open asks being answered now: not the ones a limit paused until the pause ends."""
    return tuple(a for a in open_asks(debate) if not a.paused)


def skippable(debate: Debate) -> tuple[OpenAsk, ...]:
    """The asks the people may skip: those being answered while the debate speaks (a pause
    is answered by its own buttons)."""
    return awaited(debate) if debate.phase is Phase.SPEAKING else ()


def expects(debate: Debate, participant: str, turn: int) -> bool:
    """True if the step waits for exactly this participant's answer to this turn now."""
    return any(a.participant == participant and a.turn == turn for a in awaited(debate))


def with_asks(debate: Debate, asks: tuple[OpenAsk, ...]) -> Debate:
    """The debate waiting for `asks`; the first is mirrored in speaker and attempt."""
    if not asks:
        return replace(debate, floor=replace(debate.floor, asked=(), attempt=0))
    return replace(
        debate,
        floor=replace(
            debate.floor, asked=asks, speaker=asks[0].participant, attempt=asks[0].attempt
        ),
    )


def ask_effect(debate: Debate, ask: OpenAsk, delay_s: float = 0.0) -> AskDebater:
    """The stored request to one participant; its brief is composed when it runs. What it
    may see is fixed when the step starts: a retry mid-step sees no more than the first ask."""
    before_step = tuple(
        entry for entry in debate.floor.log if entry[0] not in debate.floor.step_turns
    )
    return AskDebater(
        seat=ask.participant,
        turn=ask.turn,
        round=debate.floor.round,
        shows=format_of(debate).shows(
            replace(debate, floor=replace(debate.floor, log=before_step)), ask.participant
        ),
        step=debate.floor.step or "turn",
        note=debate.moderation.note,
        fresh_session=ask.fresh_session,
        delay_s=delay_s,
    )


def run_plan(plan: Plan) -> Step:
    """Turn a format's plan into the engine's state and effects."""
    match plan:
        case AskStep(debate=debate, step=name, participants=who, notices=notices, tasks=tasks):
            base = debate.last_number
            asks = tuple(OpenAsk(p, base + i + 1) for i, p in enumerate(who))
            asking = with_asks(
                replace(
                    debate,
                    phase=Phase.SPEAKING,
                    floor=replace(debate.floor, step=name, step_turns=()),
                    moderation=replace(debate.moderation, tasks=tasks),
                ),
                asks,
            )
            effects = tuple(ask_effect(asking, ask) for ask in asks)
            alongside = tuple(RunTask(task) for task in tasks)
            return Step(asking, (*notices, UpdateStatus(), *effects, *alongside))
        case JudgeStep(debate=debate):
            judging = replace(debate, phase=Phase.JUDGING)
            return Step(judging, (UpdateStatus(), Judge(debate.floor.turns)))
        case EndStep(debate=debate, outcome=Outcome.MAX_ROUNDS) if stuck_at_limit(debate):
            return Step(*reporting(debate))  # the people decide by poll
        case EndStep(debate=debate, outcome=Outcome.MAX_ROUNDS) if debate.setup.pauses_at_budget:
            return pause_at_budget(debate)
        case TaskStep(debate=debate, task=task):  # its step named apart from an ask step's
            cleared = with_asks(debate, ())
            tasking = replace(
                cleared,
                phase=Phase.JUDGING,
                floor=replace(cleared.floor, step=f"task:{task}"),
                moderation=replace(cleared.moderation, tasks=(task,)),
            )
            return Step(tasking, (UpdateStatus(), RunTask(task)))
        case PeopleStep(debate=debate, question=question, notices=notices):
            cleared = with_asks(debate, ())
            waiting = replace(
                cleared,
                phase=Phase.AWAITING_USER,
                people=replace(cleared.people, user_question=question),
                moderation=replace(cleared.moderation, tasks=()),
            )
            return Step(waiting, (*notices, AskUser(question), UpdateStatus()))
        case EndStep(debate=debate, outcome=outcome, effects=closing):
            ended = conclude(debate, outcome)
            return Step(ended.debate, (*closing, *ended.effects))


def task_done(debate: Debate, event: TaskDone, rng: random.Random) -> Step:
    """Store a moderator task's output verbatim and write the pages it fills; a task step
    moves on at once, a task run alongside asks once the step has all of its answers."""
    fmt = format_of(debate)
    remaining = tuple(t for t in debate.moderation.tasks if t != event.task)
    rules = event.source is ModeratorSource.RULES
    kept = fell_back(
        replace(debate, moderation=replace(debate.moderation, tasks=remaining)), event.source
    )
    stored = with_output(kept, event.task, event.output, by_rules=rules)
    effects: tuple[Effect, ...] = ()
    if event.source is ModeratorSource.RULES:
        named = task_named(stored.setup.format, event.task)
        effects = (Notify(f"{stored.setup.format}.task_fallback", (("task", named),)),)
    effects += tuple(WritePage(page) for page in fmt.task_pages(stored, event.task))
    if debate.phase is Phase.JUDGING:
        step = run_plan(fmt.tasked(stored, event.task, event.output, rng))
    elif remaining or stored.floor.asked:
        step = Step(stored)
    else:
        step = run_plan(
            fmt.answered(replace(stored, moderation=replace(stored.moderation, note="")), rng)
        )
    return Step(step.debate, (*effects, *step.effects))


def pause_at_budget(debate: Debate, why: str = "budget") -> Step:
    """The budget is spent without an end (or, `why` "converging", the meter stays high):
    the people choose (Extend / Conclude)."""
    cleared = with_asks(debate, ())
    paused = replace(
        cleared,
        phase=Phase.AWAITING_USER,
        people=replace(cleared.people, paused=why, pauses=debate.people.pauses + 1),
        floor=replace(cleared.floor, speaker=None),
        moderation=replace(cleared.moderation, tasks=()),
    )
    return Step(paused, (UpdateStatus(), AskBudget()))


def conclude(
    debate: Debate, outcome: Outcome, notice: Notify | None = None, *, declared: bool = False
) -> Step:
    """End the debate: the Conclusion is written next. Answers a step held back (a Stop
    before all were in, or the people's word at a limit's pause) are posted now: nothing a
    debater wrote is lost. A pause ends with it, and its timer is of no more use. A consensus
    the people `declared` stands as their word; another only if every seat gave it."""
    held = held_posts(debate) if step_open(debate) else ()
    told = outcome if declared else honest(debate, outcome)
    cleared = with_asks(debate, ())
    ending = replace(
        cleared,
        phase=Phase.CONCLUDING,
        ending=replace(cleared.ending, outcome=told),
        floor=replace(cleared.floor, speaker=None, late=(*debate.floor.late, *awaited(debate))),
        moderation=replace(cleared.moderation, tasks=()),
        people=replace(cleared.people, paused=""),
        spend=replace(cleared.spend, resumes_at=None),
    )
    effects: tuple[Effect, ...] = (*held, UpdateStatus(), Conclude())
    return Step(ending, (notice, *effects) if notice else effects)


def reply(debate: Debate, event: ReplyReceived, now: datetime, rng: random.Random) -> Step:
    """Store one answer as it arrives; when the step has all of its answers, move on."""
    fmt = format_of(debate)
    turn = _turn_of(debate, event, now)
    parsed = turn.parsed
    stances = dict(debate.floor.stances)
    if parsed.stance is not None:
        stances[event.seat] = parsed.stance
    heard = dict(debate.people.heard)
    heard[event.seat] = max(heard.get(event.seat, 0), event.heard)
    asked = (turn.seat, turn.number)
    waiting = tuple(a for a in open_asks(debate) if (a.participant, a.turn) != asked)
    question = parsed.question
    asking = with_asks(debate, waiting)
    after = replace(
        asking,
        spend=debate.spend.spent(event.seat, turn.meta.cost_usd, turn.meta.window),
        floor=replace(
            asking.floor,
            turns=max(debate.floor.turns, turn.number),
            spoken=(*debate.floor.spoken, turn.seat),
            skipped=0,
            stances=tuple(sorted(stances.items())),
            step_turns=(*debate.floor.step_turns, turn.number),
            log=(*debate.floor.log, (turn.number, turn.seat)),
        ),
        people=replace(
            asking.people,
            heard=tuple(sorted(heard.items())),
            # A debater's question to the people, kept for the judgement within a question's
            # size (its whole wording is in the turn, posted and logged).
            debater_question=shorten(question.text.strip(), QUESTION_CHARS)
            if question is not None and question.to == "user"
            else debate.people.debater_question,
        ),
    )
    holding = fmt.holds(debate)
    after, effects = _posted(fmt.noted(after, turn), turn, holding)
    if waiting or after.moderation.tasks:
        return Step(after, effects, turn)
    held = held_posts(after) if holding else ()
    step = run_plan(
        fmt.answered(replace(after, moderation=replace(after.moderation, note="")), rng)
    )
    return Step(step.debate, (*effects, *held, *step.effects), turn)


def late_for(debate: Debate, participant: str, turn: int) -> bool:
    """True if this answer was still being written when its ask was ended (a Stop, a Skip)."""
    if debate.phase.is_terminal:
        return False
    return any((a.participant, a.turn) == (participant, turn) for a in debate.floor.late)


def late_reply(debate: Debate, event: ReplyReceived, now: datetime) -> Step:
    """An answer that came after its ask was ended (a Stop or a Skip raced it): stored, posted
    and logged whole; it changes nothing else (a judgement under way still judges the turn
    it was asked for, so the highest judged number moves only once the debate is ending)."""
    turn = _turn_of(debate, event, now)
    ending = debate.phase is Phase.CONCLUDING
    kept = replace(
        debate,
        spend=debate.spend.spent(turn.seat, turn.meta.cost_usd, turn.meta.window),
        floor=replace(
            debate.floor,
            late=tuple(
                a for a in debate.floor.late if (a.participant, a.turn) != (turn.seat, turn.number)
            ),
            turns=max(debate.floor.turns, turn.number) if ending else debate.floor.turns,
            log=(*debate.floor.log, (turn.number, turn.seat)),
        ),
    )
    pages = tuple(WritePage(page) for page in format_of(debate).turn_pages(kept, turn))
    return Step(kept, (PostTurn(turn.number), AppendRoundLog(turn.number), *pages), turn)


def held_posts(debate: Debate) -> tuple[Effect, ...]:
    """The posts of the current step's answers, if the format holds them until all are in."""
    if not format_of(debate).holds(debate):
        return ()
    return tuple(e for n in debate.floor.step_turns for e in (PostTurn(n), AppendRoundLog(n)))


def _turn_of(debate: Debate, event: ReplyReceived, now: datetime) -> Turn:
    """The stored turn: the reply exactly as written, and its contract fields."""
    return Turn(
        debate_id=debate.id,
        number=event.turn,
        round=debate.floor.round,
        seat=event.seat,
        text=event.text,
        raw=event.raw,
        # surrogatepass: a lone surrogate in what an adapter received must not make the
        # turn impossible to hash (the store keeps such text as exact UTF-8 bytes too).
        sha256=hashlib.sha256(event.raw.encode("utf-8", "surrogatepass")).hexdigest(),
        parsed=event.parsed or format_of(debate).parse(event.text),
        meta=replace(event.meta, cost_usd=_dollars(event.meta.cost_usd)),
        at=now,
    )


def _dollars(cost: float) -> float:
    """A turn's cost as the engine adds it up: a figure that is not a finite, non-negative
    number (a CLI's `1e999`) counts as nothing, so every sum and stored state stays valid."""
    return cost if math.isfinite(cost) and cost >= 0 else 0.0


def _posted(debate: Debate, turn: Turn, holding: bool) -> tuple[Debate, tuple[Effect, ...]]:
    """Post and log the turn (unless the step holds its answers); apply its wiki_action."""
    effects: list[Effect] = [] if holding else [PostTurn(turn.number), AppendRoundLog(turn.number)]
    effects += [WritePage(page) for page in format_of(debate).turn_pages(debate, turn)]
    parsed = turn.parsed
    if not parsed.structured and not turn.meta.person:
        effects.append(Notify("turn.no_block", (("seat", turn.seat),)))
    if parsed.wiki_action is None:
        return debate, tuple(effects)
    outcome = apply_action(debate.moderation.working_document, parsed.wiki_action)
    if isinstance(outcome, Refusal):
        return debate, (*effects, Notify(outcome.key, outcome.params))
    written = (
        WriteWorkingDocument(turn.number),
        Notify("wiki.updated", (("page", "working-document"),)),
    )
    return replace(debate, moderation=replace(debate.moderation, working_document=outcome)), (
        *effects,
        *written,
    )
