"""The turns' rules: an answer stored as it arrives (a late one kept, changing nothing else), a
failed ask retried, skipped or failing the debate, and a person's Skip. Pure."""

from __future__ import annotations

from dataclasses import replace

from handlers.core.feature import Control, Moment, Rule, rules
from handlers.core.model import Actor, Debate
from handlers.core.turns.concessions import with_concession
from handlers.core.turns.events import DebaterFailed, ReplyReceived, SkipRequested
from handlers.core.turns.failures import failure, skipped_by
from handlers.core.turns.steps import Step, expects, late_for, late_reply, reply, skippable


def _answers_an_ask(debate: Debate, event: ReplyReceived | DebaterFailed) -> bool:
    """The answer (or failure) of an open ask, or of one a Stop or Skip left running."""
    seat, turn = event.seat, event.turn
    return expects(debate, seat, turn) or late_for(debate, seat, turn)


def _replied(debate: Debate, event: ReplyReceived, at: Moment) -> Step:
    if late_for(debate, event.seat, event.turn):
        return late_reply(debate, event, at.now)
    return with_concession(reply(debate, event, at.now, at.rng), event)


def _failed(debate: Debate, event: DebaterFailed, at: Moment) -> Step:
    if late_for(debate, event.seat, event.turn):  # a late ask gave nothing: it is done
        asked = (event.seat, event.turn)
        late = tuple(a for a in debate.floor.late if (a.participant, a.turn) != asked)
        return Step(replace(debate, floor=replace(debate.floor, late=late)))
    return failure(debate, event, at.now, at.rng)


def _skip_fits(debate: Debate, event: SkipRequested) -> bool:
    """A button's Skip skips its own turn only; a typed one whatever is being answered."""
    asks = [(a.participant, a.turn) for a in skippable(debate)]
    return (event.seat, event.turn) in asks if event.seat else bool(asks)


def _skipped(debate: Debate, event: SkipRequested, at: Moment) -> Step:
    return skipped_by(debate, event.actor.shown_name, at.rng)


RULES = rules(
    Rule(ReplyReceived, _replied, _answers_an_ask),
    Rule(DebaterFailed, _failed, _answers_an_ask),
    Rule(SkipRequested, _skipped, _skip_fits),
)


def _skip(actor: Actor, turn: str = "0", seat: str = "-") -> SkipRequested:
    """A Skip names the ask it was shown for (one from before it did names none: not taken)."""
    return SkipRequested(actor, seat, int(turn))


def _skips(debate: Debate) -> tuple[tuple[str, ...], ...]:
    """The ask being answered, named by its turn and seat (one Skip at a time)."""
    return tuple((str(a.turn), a.participant) for a in skippable(debate)[:1])


SKIP = Control("skip", 2, _skip, _skips)
