"""The debate's rules as a pure function: (debate, event, now, rng) -> step.

Time and randomness come in as arguments; what should happen in the world comes out as
effects for the handler to store and then run. What follows a step is the format's to say
(handlers/core/formats/); asking and storing answers are handlers/core/steps.py's, retries
and skips handlers/core/step_failures.py's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from handlers.core import effects as fx
from handlers.core import events as ev
from handlers.core.admission import Admission, admits
from handlers.core.bounds import bounded_decision
from handlers.core.claims import updated
from handlers.core.concessions import with_concession
from handlers.core.convergence import TREND_KEPT, converging_pause, decided, spent_pause
from handlers.core.credit import resumed
from handlers.core.degraded import fell_back
from handlers.core.formats import card_options, formats_for
from handlers.core.formats.plans import PeopleStep
from handlers.core.model import (
    Action,
    Actor,
    Added,
    Debate,
    Decision,
    ModeratorSource,
    Outcome,
    PeopleLine,
    Phase,
    Stance,
    UserQuestion,
)
from handlers.core.poll import on_poll, stalemate_pause, stop_poll
from handlers.core.step_failures import failure, skipped_by
from handlers.core.steps import (
    Step,
    conclude,
    format_of,
    late_for,
    late_reply,
    reply,
    run_plan,
    task_done,
)


def transition(debate: Debate, event: ev.Event, now: datetime, rng: random.Random) -> Step:
    """Apply one event; one the debate does not admit now (see admission.py) changes nothing."""
    if admits(debate, event) is not Admission.TAKEN:
        return Step(debate)
    return _taken(debate, event, now, rng)


def _taken(debate: Debate, event: ev.Event, now: datetime, rng: random.Random) -> Step:  # noqa: PLR0912  # one case per event: a table
    """The step an admitted event makes."""
    match event:
        case ev.ProposalApproved():
            return _approve(debate, event, now, rng)
        case ev.FormatChosen() | ev.OptionChosen() | ev.BudgetChosen():
            return _on_card(debate, event)
        case ev.ProposalDeclined() | ev.ProposalExpired():
            return _closed(debate, event, now)
        case ev.ReplyReceived() if late_for(debate, event.seat, event.turn):
            return late_reply(debate, event, now)
        case ev.ReplyReceived():
            return with_concession(reply(debate, event, now, rng), event)
        case ev.DebaterFailed() if late_for(debate, event.seat, event.turn):  # it gave nothing
            asked = (event.seat, event.turn)
            late = tuple(a for a in debate.late if (a.participant, a.turn) != asked)
            return Step(replace(debate, late=late))
        case ev.DebaterFailed():
            return failure(debate, event, now, rng)
        case ev.Judged():
            return _judged(debate, event, rng)
        case ev.TaskDone():
            return task_done(debate, event, rng)
        case ev.UserAnswered(actor=actor, answer=answer) if debate.paused:
            return _said(debate, actor, answer)  # at a pause, words are for the moderator
        case ev.UserAnswered(actor=actor, answer=answer):
            return _answered(debate, actor, answer, rng)
        case ev.BudgetDecided():
            return decided(debate, event, rng)
        case ev.PeopleSaid(actor=actor, text=text):
            return _said(debate, actor, text)
        case ev.MinorityReported() | ev.TimerDue() | ev.PollClosed():
            return _due(debate, event)
        case ev.StopRequested(actor=actor):
            return _stopped(debate, actor)
        case ev.SkipRequested(actor=actor):
            return skipped_by(debate, _who(actor), rng)
        case ev.ConclusionReady():
            return _ended(debate, event, now)
    return Step(debate)


def _due(debate: Debate, event: ev.MinorityReported | ev.TimerDue | ev.PollClosed) -> Step:
    """The debate's stored timer: a usage limit's reset resumes the pause that waits for it,
    an ended room's grace period archives it (the room checks the time is its archive's); the
    rest is the poll's. A timer no state here has a use for (a pause the people ended, a
    debate stopped meanwhile) changes nothing."""
    if isinstance(event, ev.TimerDue) and _waits_for_reset(debate):
        return resumed(debate)
    if isinstance(event, ev.TimerDue) and debate.phase.is_terminal:
        return Step(debate, (fx.ArchiveRoom(),))
    return on_poll(debate, event)


def _waits_for_reset(debate: Debate) -> bool:
    """True if the debate waits on a usage limit's reset (its timer is the reset's time)."""
    return debate.phase is Phase.AWAITING_USER and debate.paused == "limit"


def _stopped(debate: Debate, actor: Actor) -> Step:
    """Stop; an open poll is ended instead and its votes bind."""
    early = stop_poll(debate, actor)
    if early is not None:
        return early
    return conclude(
        debate, Outcome.STOPPED, fx.Notify("debate.stopped_by", (("user", _who(actor)),))
    )


def _ended(debate: Debate, event: ev.ConclusionReady, now: datetime) -> Step:
    """The end: the Conclusion written and posted, or the format's own closing block."""
    phase = _END_PHASE.get(debate.outcome or Outcome.CONSENSUS, Phase.CONCLUDED)
    ended = replace(
        debate, phase=phase, ended_at=now, speaker=None, conclusion=event.conclusion, late=()
    )
    told = _outcome_told(ended)
    if format_of(debate).closes_itself(debate):  # its own closing block and pages
        return Step(ended, (fx.CancelTimer(), fx.PostSummary(), told, fx.UpdateStatus()))
    done = event.conclusion
    closing = (fx.WriteConclusion(done), fx.PostConclusion(done), told, fx.UpdateStatus())
    return Step(ended, (fx.CancelTimer(), *closing))


def _outcome_told(debate: Debate) -> fx.Notify:
    """The thread's last word: the outcome, and the page that records it (the format's to say)."""
    page = format_of(debate).record_page(debate)
    outcome = f"⟦front.outcome_{(debate.outcome or Outcome.CONSENSUS).value}⟧"
    return fx.Notify("debate.outcome_recorded", (("outcome", outcome), ("page", page)))


_END_PHASE = {Outcome.STOPPED: Phase.STOPPED, Outcome.FAILED: Phase.FAILED}  # else CONCLUDED


def _on_card(debate: Debate, event: ev.FormatChosen | ev.OptionChosen | ev.BudgetChosen) -> Step:
    """A waiting card: a format, a budget or one of the format's options picked."""
    match event:
        case ev.FormatChosen(format=name):
            return Step(replace(debate, format=name))
        case ev.BudgetChosen(rounds=rounds):
            return Step(replace(debate, max_rounds=rounds))
        case ev.OptionChosen(actor=actor, key=key, value=value) if _is_form(debate, key):
            mine = Added(key, actor.user_id, _who(actor), value)
            others = tuple(a for a in debate.added if (a.key, a.user_id) != (key, actor.user_id))
            return Step(replace(debate, added=(*others, mine)))
        case ev.OptionChosen(key=key, value=value):
            options = dict(debate.options) | {key: value}
            return Step(replace(debate, options=tuple(sorted(options.items()))))


def _is_form(debate: Debate, key: str) -> bool:
    """True if the card option `key` is free text: a form, kept per person."""
    return any(o.key == key and o.is_text for o in card_options(debate.format))


def _closed(debate: Debate, event: ev.ProposalDeclined | ev.ProposalExpired, now: datetime) -> Step:
    """The card is declined or expired: no debate."""
    phase = Phase.DECLINED if isinstance(event, ev.ProposalDeclined) else Phase.EXPIRED
    return Step(replace(debate, phase=phase, ended_at=now), (fx.CloseCard(),))


def _who(actor: Actor) -> str:
    return actor.name or str(actor.user_id)


def _approve(debate: Debate, event: ev.ProposalApproved, now: datetime, rng: random.Random) -> Step:
    """Fix the roster and format, open the room, and take the format's first step. A format
    the roster cannot run is not taken: the debate keeps the one it was proposed with."""
    roster = event.roster or debate.roster
    chosen = event.format if event.format in formats_for(roster) else debate.format
    fixed = replace(
        debate,
        roster=roster,
        format=chosen,
        started_at=now,
        approved_by=event.actor.user_id,
        pauses_at_budget=event.pauses_at_budget,
        poll_hours=event.poll_hours,
        options=tuple(sorted((dict(debate.options) | dict(event.options)).items())),
        spend=replace(debate.spend, budget_usd=event.budget_usd),
    )
    step = run_plan(format_of(fixed).start(fixed, rng))
    opening: tuple[fx.Effect, ...] = (
        fx.CloseCard(),
        fx.OpenRoom(),
        fx.WriteAgenda(),
        fx.Notify("wiki.agenda_written", (("page", "agenda"),)),
    )
    return Step(step.debate, (*opening, *step.effects))


def _judged(debate: Debate, event: ev.Judged, rng: random.Random) -> Step:
    decision = bounded_decision(event.decision)
    effects: list[fx.Effect] = []
    source = debate.moderator_source
    if decision.source is ModeratorSource.RULES and not decision.lasting:
        effects.append(fx.Notify("moderator.rules_once"))  # a blip: the mode stays as it was
    elif decision.source is not source:
        source = decision.source
        effects.append(fx.Notify(f"moderator.mode_{source.value}"))
    noted = ((debate.turns, decision.note),) if decision.note.strip() else ()
    judged = replace(
        fell_back(debate, decision.source),
        notes=(*debate.notes, *noted),
        summary=decision.summary or debate.summary,
        moderator_source=source,
        note=decision.note,
        moderator_heard=max(debate.moderator_heard, event.heard),
        people_question="",
        consensus_trend=(*debate.consensus_trend, decision.consensus)[-TREND_KEPT:],
        claims=updated(debate.claims, decision.claims, debate.ids, event.turn),
    )
    if judged.claims != debate.claims:
        effects.append(fx.UpdateClaims())
    effects += _shown(debate, decision)
    question = decision.user_question if decision.action is Action.ASK_USER else None
    if question is None and decision.action is not Action.CONCLUDE and debate.people_question:
        # The moderator let a debater's question to the people pass: put it to them anyway
        # (kept within a question's size; its whole wording is in the debater's turn).
        question = UserQuestion(text=debate.people_question)
    unheard = _unheard(debate)
    if decision.action is Action.CONCLUDE and not unheard:
        step = conclude(judged, Outcome.CONSENSUS)
    elif question is not None:
        step = run_plan(PeopleStep(judged, question))
    else:
        step = run_plan(format_of(judged).judged(judged, decision, rng))
        step = spent_pause(judged, stalemate_pause(judged, converging_pause(judged, step)))
    if decision.action is Action.CONCLUDE and unheard:
        effects.append(fx.Notify("moderator.conclude_early", (("seat", unheard[0]),)))
    return Step(step.debate, (*effects, *step.effects))


def _unheard(debate: Debate) -> tuple[str, ...]:
    """The seats that have neither spoken nor failed or been stopped trying: a moderator's
    conclusion before each is heard would end the debate on one side's word (it goes on)."""
    heard = {seat for _, seat in debate.log} | set(debate.faltered) | set(debate.benched)
    return tuple(seat for seat in debate.ids if seat not in heard)


def _shown(debate: Debate, decision: Decision) -> list[fx.Effect]:
    """The moderator's note and redirect, in the thread (grey) and in the Round-Log."""
    shown: list[fx.Effect] = []
    key = f"note-{debate.turns}"
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


def _answered(debate: Debate, actor: Actor, answer: str, rng: random.Random) -> Step:
    question = debate.user_question.text if debate.user_question else ""
    line = PeopleLine(who=_who(actor), text=answer, question=question or "-")
    answered = replace(debate, user_question=None, people=(*debate.people, line))
    step = run_plan(format_of(answered).resumed(answered, rng))
    notice = fx.Notify("user.answered", (("user", line.who), ("answer", answer)))
    logged = fx.LogNote(f"people-{len(answered.people)}", "answer", line.who, answer)
    closed = fx.CloseQuestion(debate.question_number)
    return Step(step.debate, (notice, closed, logged, *step.effects))


def _said(debate: Debate, actor: Actor, text: str) -> Step:
    """A message typed in the room: kept verbatim for the moderator and the next debaters."""
    line = PeopleLine(who=_who(actor), text=text)
    said = replace(debate, people=(*debate.people, line))
    return Step(said, (fx.LogNote(f"people-{len(said.people)}", "said", line.who, text),))


def both_agree(debate: Debate) -> bool:
    """True when every participant's latest stance is `agree`."""
    return all(debate.stance_of(p) is Stance.AGREE for p in debate.ids)
