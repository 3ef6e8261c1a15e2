"""The moderator's rules: its judgement after a step (its memory, notes, claims and the
meter kept; what follows decided) and the format's moderator tasks done. Pure."""

from __future__ import annotations

from dataclasses import replace

from handlers.core import effects as fx
from handlers.core.ending.degraded import fell_back
from handlers.core.feature import Moment, Rule, rules
from handlers.core.formats.plans import PeopleStep
from handlers.core.model import (
    Action,
    Debate,
    Decision,
    ModeratorSource,
    Outcome,
    Phase,
    Stance,
    UserQuestion,
)
from handlers.core.moderation.bounds import bounded_decision
from handlers.core.moderation.claims import updated
from handlers.core.moderation.events import Judged, TaskDone
from handlers.core.people.pauses import TREND_KEPT, converging_pause, spent_pause
from handlers.core.poll.rules import stalemate_pause
from handlers.core.turns.steps import Step, conclude, format_of, run_plan, step_open, task_done


def _judge_fits(debate: Debate, event: Judged) -> bool:
    """The judgement of the last stored turn, once the step's tasks are done."""
    return (
        debate.phase is Phase.JUDGING
        and event.turn == debate.floor.turns
        and not debate.moderation.tasks
    )


def _judged(debate: Debate, event: Judged, at: Moment) -> Step:
    """The moderator's judgement: its memory kept, its note shown, and what follows (the
    people asked, the format's next step, a pause, or the end once every seat was heard)."""
    decision = bounded_decision(event.decision)
    effects: list[fx.Effect] = []
    source = debate.moderation.source
    if decision.source is ModeratorSource.RULES and not decision.lasting:
        effects.append(fx.Notify("moderator.rules_once"))  # a blip: the mode stays as it was
    elif decision.source is not source:
        source = decision.source
        effects.append(fx.Notify(f"moderator.mode_{source.value}"))
    noted = ((debate.floor.turns, decision.note),) if decision.note.strip() else ()
    fallen = fell_back(debate, decision.source)
    judged = replace(
        fallen,
        moderation=replace(
            fallen.moderation,
            notes=(*debate.moderation.notes, *noted),
            summary=decision.summary or debate.moderation.summary,
            source=source,
            note=decision.note,
            heard=max(debate.moderation.heard, event.heard),
            consensus_trend=(*debate.moderation.consensus_trend, decision.consensus)[-TREND_KEPT:],
            claims=updated(debate.moderation.claims, decision.claims, debate.ids, event.turn),
        ),
        people=replace(fallen.people, debater_question=""),
    )
    if judged.moderation.claims != debate.moderation.claims:
        effects.append(fx.UpdateClaims())
    effects += _shown(debate, decision)
    question = decision.user_question if decision.action is Action.ASK_USER else None
    if (
        question is None
        and decision.action is not Action.CONCLUDE
        and debate.people.debater_question
    ):
        # The moderator let a debater's question to the people pass: put it to them anyway
        # (kept within a question's size; its whole wording is in the debater's turn).
        question = UserQuestion(text=debate.people.debater_question)
    unheard = _unheard(debate)
    if decision.action is Action.CONCLUDE and not unheard:
        step = conclude(judged, Outcome.CONSENSUS)
    elif question is not None:
        step = run_plan(PeopleStep(judged, question))
    else:
        step = run_plan(format_of(judged).judged(judged, decision, at.rng))
        step = spent_pause(judged, stalemate_pause(judged, converging_pause(judged, step)))
    if decision.action is Action.CONCLUDE and unheard:
        effects.append(fx.Notify("moderator.conclude_early", (("seat", unheard[0]),)))
    return Step(step.debate, (*effects, *step.effects))


def _unheard(debate: Debate) -> tuple[str, ...]:
    """The seats that have neither spoken nor failed or been stopped trying: a moderator's
    conclusion before each is heard would end the debate on one side's word (it goes on)."""
    heard = (
        {seat for _, seat in debate.floor.log}
        | set(debate.floor.faltered)
        | set(debate.spend.benched)
    )
    return tuple(seat for seat in debate.ids if seat not in heard)


def _shown(debate: Debate, decision: Decision) -> list[fx.Effect]:
    """The moderator's note and redirect, in the thread (grey) and in the Round-Log."""
    shown: list[fx.Effect] = []
    key = f"note-{debate.floor.turns}"
    lead = decision.next_seat
    if decision.action is Action.REDIRECT and lead is not None and lead in debate.ids:
        params = (("seat", lead), ("note", decision.note or "-"))
        logged = fx.LogNote(key, "redirect", debate.name_of(lead), decision.note)
        shown += [fx.Notify("moderator.redirect", params), logged]
    elif decision.note.strip() and decision.action is not Action.CONCLUDE:
        shown += [
            fx.Notify("moderator.note", (("note", decision.note),)),
            fx.LogNote(key, "note", "", decision.note),
        ]
    return shown


def _task_fits(debate: Debate, event: TaskDone) -> bool:
    """A task the step still waits for, while judging or while its asks are open."""
    tasking = debate.phase is Phase.JUDGING or step_open(debate)
    return tasking and event.task in debate.moderation.tasks


def _task_done(debate: Debate, event: TaskDone, at: Moment) -> Step:
    return task_done(debate, event, at.rng)


def both_agree(debate: Debate) -> bool:
    """True when every participant's latest stance is `agree`."""
    return all(debate.stance_of(p) is Stance.AGREE for p in debate.ids)


RULES = rules(Rule(Judged, _judged, _judge_fits), Rule(TaskDone, _task_done, _task_fits))
