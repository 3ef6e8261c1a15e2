"""The debate's rules as a pure function: (debate, event, now, rng) -> step.

No I/O here: time and randomness come in as arguments, and what should happen
in the world comes out as effects for the handler to store and then run.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from datetime import datetime

from handlers.events import (
    AppendRoundLog,
    AskDebater,
    AskUser,
    CloseCard,
    Conclude,
    ConclusionReady,
    DebaterFailed,
    Effect,
    Event,
    Judge,
    Judged,
    Notify,
    OpenRoom,
    PostConclusion,
    PostTurn,
    ProposalApproved,
    ProposalDeclined,
    ProposalExpired,
    ReplyReceived,
    StopRequested,
    UpdateStatus,
    UserAnswered,
    WriteAgenda,
    WriteConclusion,
    WriteWorkingDocument,
)
from handlers.model import (
    Action,
    Actor,
    Debate,
    Decision,
    FailureKind,
    ModeratorSource,
    Outcome,
    Phase,
    Seat,
    Stance,
    Turn,
)
from handlers.reply_parser import parse_reply
from handlers.shorten import shorten
from handlers.wiki_actions import Refusal, apply_action

MAX_RETRIES = 2  # a transient failure is retried this often before the turn is skipped
MAX_TIMEOUT_RETRIES = 1  # a silent debater gets one more chance
MAX_SKIPS = 2  # consecutive skipped turns before the debate fails
BACKOFF_S = 30.0


@dataclass(frozen=True)
class Step:
    """The outcome of one transition: the new state, a turn to store, effects to run."""

    debate: Debate
    effects: tuple[Effect, ...] = ()
    turn: Turn | None = None


def authorized(debate: Debate, actor: Actor) -> bool:
    """Only the people of the conversation, or holders of the approver role, may act."""
    return actor.is_approver or actor.user_id in debate.participants


def transition(debate: Debate, event: Event, now: datetime, rng: random.Random) -> Step:
    """Apply one event; an event that does not fit the current state changes nothing."""
    match event:
        case ProposalApproved(actor=actor) if debate.phase is Phase.PROPOSED:
            return _approve(debate, actor, now, rng) if authorized(debate, actor) else Step(debate)
        case ProposalDeclined(actor=actor) if debate.phase is Phase.PROPOSED:
            if not authorized(debate, actor):
                return Step(debate)
            return Step(replace(debate, phase=Phase.DECLINED, ended_at=now), (CloseCard(),))
        case ProposalExpired() if debate.phase is Phase.PROPOSED:
            return Step(replace(debate, phase=Phase.EXPIRED, ended_at=now), (CloseCard(),))
        case ReplyReceived() if _expects(debate, event.seat, event.turn):
            return _reply(debate, event, now, rng)
        case DebaterFailed() if _expects(debate, event.seat, event.turn):
            return _failure(debate, event, rng)
        case Judged(turn=turn, decision=decision) if (
            debate.phase is Phase.JUDGING and turn == debate.turns
        ):
            return _judged(debate, decision, rng)
        case UserAnswered(actor=actor, answer=answer) if debate.phase is Phase.AWAITING_USER:
            if not authorized(debate, actor):
                return Step(debate)
            return _answered(debate, actor, answer, rng)
        case StopRequested(actor=actor) if debate.phase in _STOPPABLE:
            if not authorized(debate, actor):
                return Step(debate)
            notice = Notify("debate.stopped_by", (("user", actor.name or str(actor.user_id)),))
            return _conclude(debate, Outcome.STOPPED, notice)
        case ConclusionReady(conclusion=conclusion) if debate.phase is Phase.CONCLUDING:
            phase = _END_PHASE[debate.outcome or Outcome.CONSENSUS]
            ended = replace(debate, phase=phase, ended_at=now, speaker=None)
            return Step(
                ended, (WriteConclusion(conclusion), PostConclusion(conclusion), UpdateStatus())
            )
    return Step(debate)


_STOPPABLE = frozenset({Phase.SPEAKING, Phase.JUDGING, Phase.AWAITING_USER})
_END_PHASE = {
    Outcome.CONSENSUS: Phase.CONCLUDED,
    Outcome.MAX_ROUNDS: Phase.CONCLUDED,
    Outcome.STOPPED: Phase.STOPPED,
    Outcome.FAILED: Phase.FAILED,
}


def _expects(debate: Debate, seat: Seat, turn: int) -> bool:
    """True if the debate waits for exactly this seat's reply to this turn."""
    return debate.phase is Phase.SPEAKING and debate.speaker is seat and turn == debate.turns + 1


def _approve(debate: Debate, actor: Actor, now: datetime, rng: random.Random) -> Step:
    order = _draw_order(rng)
    opened = replace(
        debate,
        phase=Phase.SPEAKING,
        round=1,
        order=order,
        spoken=(),
        speaker=order[0],
        started_at=now,
        approved_by=actor.user_id,
    )
    return Step(
        opened,
        (
            CloseCard(),
            OpenRoom(),
            WriteAgenda(),
            Notify("wiki.agenda_written", (("page", "agenda"),)),
            Notify("debate.opening", (("seat", order[0].value),)),
            UpdateStatus(),
            _ask(opened),
        ),
    )


def _draw_order(rng: random.Random, first: Seat | None = None) -> tuple[Seat, Seat]:
    lead = first if first is not None else rng.choice((Seat.AG, Seat.CLAUDE))
    return (lead, lead.opponent)


def _ask(debate: Debate, delay_s: float = 0.0) -> AskDebater:
    seat = debate.speaker if debate.speaker is not None else debate.order[0]
    relay = debate.relay_turn
    return AskDebater(
        seat=seat,
        turn=debate.turns + 1,
        round=debate.round,
        relay_turn=relay,
        note=debate.note,
        user_answer=debate.user_answer,
        fresh_session=debate.fresh_session,
        delay_s=delay_s,
    )


def _reply(debate: Debate, event: ReplyReceived, now: datetime, rng: random.Random) -> Step:
    parsed = event.parsed if event.parsed is not None else parse_reply(event.text)
    number = debate.turns + 1
    turn = Turn(
        debate_id=debate.id,
        number=number,
        round=debate.round,
        seat=event.seat,
        text=event.text,
        raw=event.raw,
        # surrogatepass: a lone surrogate in what an adapter received must not make the
        # turn impossible to hash (the store keeps such text as exact UTF-8 bytes too).
        sha256=hashlib.sha256(event.raw.encode("utf-8", "surrogatepass")).hexdigest(),
        parsed=parsed,
        meta=event.meta,
        at=now,
    )
    stances = dict(debate.stances)
    if parsed.stance is not None:
        stances[event.seat] = parsed.stance
    spoken = (*debate.spoken, event.seat)
    asked_first = debate.first_next_round
    if parsed.question is not None and parsed.question.to == "opponent" and len(spoken) == 2:
        asked_first = event.seat.opponent
    after = replace(
        debate,
        turns=number,
        spoken=spoken,
        attempt=0,
        skipped=0,
        fresh_session=False,
        relay_turn=number,
        note="",
        user_answer="",
        stances=tuple(sorted(stances.items())),
        first_next_round=asked_first,
        cost_usd=debate.cost_usd + event.meta.cost_usd,
    )
    effects: list[Effect] = [PostTurn(number), AppendRoundLog(number)]
    if not parsed.structured:
        effects.append(Notify("turn.no_block", (("seat", event.seat.value),)))
    if parsed.wiki_action is not None:
        outcome = apply_action(debate.working_document, parsed.wiki_action)
        if isinstance(outcome, Refusal):
            effects.append(Notify(outcome.key, outcome.params))
        else:
            after = replace(after, working_document=outcome)
            effects += [
                WriteWorkingDocument(number),
                Notify("wiki.updated", (("page", "working-document"),)),
            ]
    if len(spoken) == 2 and debate.round >= debate.max_rounds:
        step = _conclude(after, Outcome.MAX_ROUNDS)
        return Step(step.debate, (*effects, *step.effects), turn)
    judging = replace(after, phase=Phase.JUDGING)
    return Step(judging, (*effects, UpdateStatus(), Judge(number)), turn)


def _failure(debate: Debate, event: DebaterFailed, rng: random.Random) -> Step:
    seat = (("seat", event.seat.value), ("kind", event.kind.value))
    if event.kind is FailureKind.SESSION_MISSING and not debate.fresh_session:
        fresh = replace(debate, fresh_session=True)
        return Step(fresh, (Notify("debater.session_restarted", seat), _ask(fresh)))
    if event.kind.is_transient:
        limit = MAX_TIMEOUT_RETRIES if event.kind is FailureKind.TIMEOUT else MAX_RETRIES
        if debate.attempt < limit:
            delay = event.retry_after if event.retry_after is not None else _backoff(debate)
            retry = replace(debate, attempt=debate.attempt + 1)
            params = (*seat, ("seconds", str(round(delay))))
            return Step(retry, (Notify("debater.retrying", params), _ask(retry, delay)))
        return _skip(debate, event, rng)
    detail = (*seat, ("detail", shorten(event.detail, 300)))
    failed = replace(debate, failure=f"{event.seat.value}: {event.kind.value}")
    return _conclude(failed, Outcome.FAILED, Notify("debater.failed", detail))


def _backoff(debate: Debate) -> float:
    return float(BACKOFF_S * 2**debate.attempt)


def _skip(debate: Debate, event: DebaterFailed, rng: random.Random) -> Step:
    skipped = debate.skipped + 1
    params = (("seat", event.seat.value), ("kind", event.kind.value))
    if skipped >= MAX_SKIPS:
        failed = replace(debate, failure=f"{event.seat.value}: {event.kind.value}")
        return _conclude(failed, Outcome.FAILED, Notify("debater.failed_repeatedly", params))
    # A skipped turn counts as spoken so the round moves on; the relay stays as it was.
    moved = replace(debate, skipped=skipped, attempt=0, spoken=(*debate.spoken, event.seat))
    step = _advance(moved, rng)
    return Step(step.debate, (Notify("debater.skipped", params), *step.effects))


def _judged(debate: Debate, decision: Decision, rng: random.Random) -> Step:
    effects: list[Effect] = []
    source = debate.moderator_source
    if decision.source is ModeratorSource.RULES and not decision.lasting:
        effects.append(Notify("moderator.rules_once"))  # a blip: the mode stays as it was
    elif decision.source is not source:
        source = decision.source
        effects.append(Notify(f"moderator.mode_{source.value}"))
    judged = replace(
        debate,
        summary=decision.summary or debate.summary,
        moderator_source=source,
        note=decision.note,
    )
    if decision.action is Action.CONCLUDE:
        step = _conclude(judged, Outcome.CONSENSUS)
    elif decision.action is Action.ASK_USER and decision.user_question is not None:
        waiting = replace(judged, phase=Phase.AWAITING_USER, user_question=decision.user_question)
        step = Step(waiting, (AskUser(decision.user_question), UpdateStatus()))
    else:
        lead = decision.next_seat if decision.action is Action.REDIRECT else None
        step = _advance(judged, rng, lead)
    return Step(step.debate, (*effects, *step.effects))


def _answered(debate: Debate, actor: Actor, answer: str, rng: random.Random) -> Step:
    answered = replace(debate, user_answer=answer, user_question=None)
    who = actor.name or str(actor.user_id)
    step = _advance(answered, rng)
    notice = Notify("user.answered", (("user", who), ("answer", answer)))
    return Step(step.debate, (notice, *step.effects))


def _advance(debate: Debate, rng: random.Random, lead: Seat | None = None) -> Step:
    """Move to the next speaker: the rest of this round, or a new round, or the end."""
    remaining = [seat for seat in debate.order if seat not in debate.spoken]
    if remaining:
        nxt = replace(debate, phase=Phase.SPEAKING, speaker=remaining[0])
        return Step(nxt, (UpdateStatus(), _ask(nxt)))
    if debate.round >= debate.max_rounds:
        return _conclude(debate, Outcome.MAX_ROUNDS)
    first = debate.first_next_round or lead
    order = _draw_order(rng, first)
    nxt = replace(
        debate,
        phase=Phase.SPEAKING,
        round=debate.round + 1,
        order=order,
        spoken=(),
        speaker=order[0],
        first_next_round=None,
    )
    return Step(nxt, (UpdateStatus(), _ask(nxt)))


def _conclude(debate: Debate, outcome: Outcome, notice: Notify | None = None) -> Step:
    ending = replace(debate, phase=Phase.CONCLUDING, outcome=outcome, speaker=None)
    effects: tuple[Effect, ...] = (UpdateStatus(), Conclude())
    return Step(ending, (notice, *effects) if notice else effects)


def both_agree(debate: Debate) -> bool:
    """True when each seat's latest stance is `agree`."""
    return all(debate.stance_of(seat) is Stance.AGREE for seat in Seat)
