"""Honest concessions: a debater that moves its stance toward the others must quote
what convinced it (`convinced_by`); code checks the quote against the others' earlier replies.
A concession without a matching quote is flagged in the thread and told to the moderator."""

from __future__ import annotations

from dataclasses import replace

from handlers.core.effects import Notify
from handlers.core.events import ReplyReceived
from handlers.core.model import Stance, Turn
from handlers.core.quotes import found_in
from handlers.core.turns.steps import Step

_RANK = {Stance.DISAGREE: 0, Stance.PARTIAL: 1, Stance.AGREE: 2}


def moved_toward(before: Stance | None, after: Stance | None) -> bool:
    """True when a stated stance moves toward agreement (a first stance is no move)."""
    return before is not None and after is not None and _RANK[after] > _RANK[before]


def quoted(quote: str, others: tuple[Turn, ...]) -> bool:
    """The quote appears, word for word (case and the quotes' normal form aside), in the
    prose of one of the others' earlier replies."""
    return found_in(quote, others, fold_case=True)


def verdict(seat: str, quote: str, others: tuple[Turn, ...]) -> str:
    """A concession's (see `moved_toward`): "quoted" if `quote` stands in another's reply."""
    return "quoted" if quoted(quote, tuple(t for t in others if t.seat != seat)) else "unquoted"


def with_concession(step: Step, event: ReplyReceived) -> Step:
    """An unquoted concession: flagged in the thread, and kept for the moderator's state."""
    if event.concession != "unquoted":
        return step
    debate = replace(
        step.debate,
        floor=replace(
            step.debate.floor, unquoted=(*step.debate.floor.unquoted, (event.turn, event.seat))
        ),
    )
    notice = Notify("concession.unquoted", (("seat", event.seat),))
    return replace(step, debate=debate, effects=(notice, *step.effects))
