"""The invariants of one simulated debate, checked once it has ended (or waits on the people).
Each returns what it found wrong, in words; an empty list is a clean debate."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from bench.sim.ports import SimRoom, SimWiki
from bench.sim.world import World
from handlers.core.effects import AskUser, Notify
from handlers.core.formats import format_named
from handlers.core.model import Debate, Outcome, Participant, Phase, Turn
from handlers.core.moderation.bounds import MAX_OPTIONS, NOTE_CHARS, OPTION_CHARS, QUESTION_CHARS
from handlers.core.shorten import omitted_note

ROUNDING = 1e-9  # costs are sums of floats
_NOTE_ROOM = len(omitted_note(10**9)) + 1  # what a cut text's note adds


@dataclass(frozen=True)
class Paid:
    """A debater's answer as it was handed over, and the process it was handed to."""

    turn: int
    text: str
    generation: int


@dataclass
class Driver:
    """One debate of the run: its world, format and roster, and what its debaters gave."""

    index: int
    world: World
    fmt: str
    roster: tuple[Participant, ...]
    debate_id: int = 0
    finished: bool = False
    asked: dict[int, list[str]] = field(default_factory=dict)
    paid: list[Paid] = field(default_factory=list)


@dataclass(frozen=True)
class Seen:
    """Everything the checks read of one debate."""

    debate: Debate
    stored: tuple[Turn, ...]
    asked: dict[int, list[str]]  # turn -> what each ask of it gave ("" for a failure)
    paid: tuple[Paid, ...]
    generation: int  # the process the debate ended in
    open_timers: int
    room: SimRoom
    wiki: SimWiki


def violations(seen: Seen) -> list[str]:
    """Every invariant the debate broke."""
    return [
        *_turns(seen),
        *_paid(seen),
        *_status(seen),
        *_bounded(seen),
        *_pages(seen),
        *_timers(seen),
        *_costs(seen),
        *_ending(seen),
        *_steelman(seen),
    ]


def _turns(seen: Seen) -> Iterable[str]:
    """Every stored reply posted once, whole, in the Round-Log once, and given by a debater
    (and not asked again once stored); nothing posted that was never stored."""
    debate, room, keys = seen.debate, seen.room.inner, seen.wiki.inner.keys
    shown = {
        t.number: t for kind, t in room.posted if isinstance(t, Turn) and t.debate_id == debate.id
    }
    for turn in seen.stored:
        n = turn.number
        if room.turn_posts[(debate.id, n)] != 1:
            yield f"turn {n} posted {room.turn_posts[(debate.id, n)]} times"
        if n not in shown or shown[n].text != turn.text:
            yield f"turn {n} was not shown whole"
        if keys[f"{debate.id}:round-log:{n}"] != 1:
            yield f"turn {n} is not in the Round-Log once"
        given = seen.asked.get(n, [])
        if turn.text not in given:
            yield f"turn {n} holds text no debater gave"
        elif given[given.index(turn.text) + 1 :]:
            yield f"turn {n} was asked again after it was stored"
    posted = {n for (d, n) in room.turn_posts if d == debate.id}
    if posted - {t.number for t in seen.stored}:
        yield f"posted turns that were never stored: {sorted(posted)}"


def _paid(seen: Seen) -> Iterable[str]:
    """Every answer a debater handed over is stored, unless the process died before it could
    be (that debater is then asked again: a paid repeat, counted apart)."""
    stored = {(t.number, t.text) for t in seen.stored}
    for answer in seen.paid:
        if (answer.turn, answer.text) not in stored and answer.generation == seen.generation:
            yield f"the answer to turn {answer.turn}, paid for, was never stored"


def _status(seen: Seen) -> Iterable[str]:
    """An ended debate's status shows the end."""
    debate, last = seen.debate, seen.room.last_status.get(seen.debate.id)
    ended = debate.phase.is_terminal and debate.phase is not Phase.DECLINED
    if ended and last is not None and not Phase(last).is_terminal:
        yield f"the status still reads {last!r} after the end"


def _bounded(seen: Seen) -> Iterable[str]:
    """Every question and note the room showed stays within its limits."""
    for debate_id, effect in seen.room.shown:
        if debate_id != seen.debate.id:
            continue
        if isinstance(effect, AskUser):
            question = effect.question
            if len(question.text) > QUESTION_CHARS + _NOTE_ROOM:
                yield f"a question of {len(question.text):,} characters was shown"
            if len(question.options) > MAX_OPTIONS or any(
                len(option) > OPTION_CHARS for option in question.options
            ):
                yield f"a question with {len(question.options)} options (or one too long)"
        if isinstance(effect, Notify) and len(dict(effect.params).get("note", "")) > NOTE_CHARS:
            yield "a note longer than its limit was shown"


def _pages(seen: Seen) -> Iterable[str]:
    """No page is written after the end was shown; a debate ended by a Conclusion has it."""
    debate = seen.debate
    end = seen.room.ended_at.get(debate.id)
    late = [key for d, key, at in seen.wiki.landed if d == debate.id and end and at > end]
    if late:
        yield f"wiki pages written after the end was shown: {late[:3]}"
    concluded = debate.phase in (Phase.CONCLUDED, Phase.STOPPED, Phase.FAILED)
    closes = format_named(debate.setup.format).closes_itself(debate)
    if concluded and not closes and seen.wiki.inner.keys[f"{debate.id}:conclusion"] != 1:
        yield "the Conclusion page was not written once"


def _timers(seen: Seen) -> Iterable[str]:
    """No timer outlives its debate."""
    if seen.debate.phase.is_terminal and seen.open_timers:
        yield f"{seen.open_timers} timer(s) still set after the end"


def _costs(seen: Seen) -> Iterable[str]:
    """The debate's cost is its turns' costs, and each seat's share adds up to it."""
    debate = seen.debate
    turns = sum(t.meta.cost_usd for t in seen.stored)
    seats = sum(debate.spend.of(seat) for seat in {t.seat for t in seen.stored})
    if not all(math.isfinite(x) for x in (debate.spend.cost_usd, turns, seats)):
        yield f"a cost that is no number: {debate.spend.cost_usd}"
    elif abs(debate.spend.cost_usd - turns) > ROUNDING or abs(seats - turns) > ROUNDING:
        yield f"costs do not add up: {debate.spend.cost_usd} vs turns {turns} vs seats {seats}"


def _ending(seen: Seen) -> Iterable[str]:
    """A consensus or a verdict only once every seat has spoken (or failed trying)."""
    debate = seen.debate
    if (
        debate.ending.outcome not in (Outcome.CONSENSUS, Outcome.VERDICT)
        or not debate.phase.is_terminal
    ):
        return
    if format_named(debate.setup.format).closes_itself(debate):
        return  # its own protocol says who speaks (an adversarial LITE tier asks two roles)
    heard = (
        {seat for _, seat in debate.floor.log}
        | set(debate.floor.faltered)
        | set(debate.spend.benched)
    )
    unheard = [seat for seat in debate.ids if seat not in heard]
    if unheard:
        yield f"ended as {debate.ending.outcome.value} before {unheard} spoke"


def _steelman(seen: Seen) -> Iterable[str]:
    """A turn shown as a steelman is a stored turn of a seat that owed one (asked after the
    press), shown once; a seat owes one no longer once it gave it."""
    debate, room = seen.debate, seen.room.inner
    stored = {t.number: t.seat for t in seen.stored}
    for number in debate.steelman.turns:
        if number not in stored:
            yield f"turn {number} is marked a steelman but was never stored"
    shown = {
        int(params["turn"])
        for d, key, params in room.notices
        if d == debate.id and key == "steelman.turn"
    }
    if shown != set(debate.steelman.turns):
        yield f"steelman notices for turns {sorted(shown)}, steelman turns {debate.steelman.turns}"
    for seat, first in debate.steelman.due:
        if any(stored.get(n) == seat and n >= first for n in debate.steelman.turns):
            yield f"{seat} gave its steelman and still owes one"
