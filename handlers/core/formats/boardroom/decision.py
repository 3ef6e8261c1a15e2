"""The boardroom's outcome as a decision record: the vote on the decision is the choice among
its answers (yes, no, conditional), each member's argument for its vote and the risks it named
the option's pros and cons; the synthesis gives the drivers (its tensions), the justification
(its recommendation), the confirmation (its guardrails and the members' metrics) and what is
still to settle (the conditions for consensus, the people's question)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from handlers.core.formats.boardroom.advisor import ADVISOR, SYNTHESIS, panel_ids
from handlers.core.formats.boardroom.pages import (
    DIVIDED,
    decision_of,
    escalates,
    final_votes,
    result_of,
    round_of,
    synthesis_of,
    vote_word,
)
from handlers.core.formats.boardroom.reply import NO, VOTES, Position, parse_position
from handlers.core.formats.boardroom.report import recommendation_of
from handlers.core.formats.decision import ConsideredOption, DecisionRecord, Status, concluded
from handlers.core.formats.keys import verbatim as v
from handlers.core.model import Debate, Turn


def boardroom_decision(debate: Debate, turns: tuple[Turn, ...]) -> DecisionRecord:
    """The record once the synthesis is written; before (a Stop), the moderator's Conclusion."""
    if debate.output_of(ADVISOR) is None and debate.output_of(SYNTHESIS) is None:
        return concluded(debate)
    found = synthesis_of(debate)
    votes = final_votes(debate)
    positions = _positions(debate, turns)
    counted = Counter(vote for vote in votes.values() if vote)
    top = counted.most_common(1)[0][0] if counted else None
    decided = result_of(debate) != DIVIDED and top is not None
    topic = v(decision_of(debate))
    status = Status.PROPOSED
    if decided:
        status = Status.REJECTED if top == NO else Status.ACCEPTED
    backers = [seat for seat, vote in votes.items() if vote == top] if decided else []
    return DecisionRecord(
        status,
        drivers=_listed(found, "tensions"),
        options=tuple(_option(debate, vote, topic, votes, positions) for vote in VOTES),
        chosen=f"{vote_word(top)} — {topic}" if decided else "",
        because=(
            f"⟦boardroom.result_{result_of(debate).lower()}⟧ · {recommendation_of(found)}"
            if decided
            else ""
        ),
        good=_by(debate, backers, positions, "argument")
        + ((v(str(found["insight"])),) if found.get("insight") else ()),
        bad=_by(debate, backers, positions, "risks"),
        confirmation=_listed(found, "guardrails")
        + tuple(dict.fromkeys(v(m) for s in backers for m in positions.get(s, Position()).metrics)),
        more=_more(debate, found),
    )


def _positions(debate: Debate, turns: tuple[Turn, ...]) -> dict[str, Position]:
    """Each member's answers, round 1 completed by round 2 (its final word wins where given)."""
    found: dict[str, Position] = {}
    for turn in sorted(turns, key=lambda t: t.number):
        if turn.seat in panel_ids(debate):
            said = parse_position(turn.text, round_of(debate, turn.number))
            found[turn.seat] = found[turn.seat].merged(said) if turn.seat in found else said
    return found


def _option(
    debate: Debate,
    vote: str,
    topic: str,
    votes: dict[str, str | None],
    positions: dict[str, Position],
) -> ConsideredOption:
    """One answer to the decision: who voted it, their arguments for it and the risks they saw."""
    seats = [seat for seat, given in votes.items() if given == vote]
    named = ", ".join(v(debate.name_of(seat)) for seat in seats)
    return ConsideredOption(
        f"{vote_word(vote)} — {topic}",
        f"⟦adr.voted_by⟧: {named}" if seats else "⟦adr.voted_by_none⟧",
        _by(debate, seats, positions, "argument"),
        _by(debate, seats, positions, "risks"),
    )


def _by(
    debate: Debate, seats: list[str], positions: dict[str, Position], part: str
) -> tuple[str, ...]:
    """What each of `seats` said in `part` of its answers (its argument, each of its risks),
    named."""
    said: list[str] = []
    for seat in seats:
        value = getattr(positions.get(seat, Position()), part)
        for item in (value,) if isinstance(value, str) else value:
            if item.strip():
                said.append(f"{v(debate.name_of(seat))}: {v(item)}")
    return tuple(said)


def _listed(found: dict[str, Any], key: str) -> tuple[str, ...]:
    items = found.get(key) or []
    return (
        tuple(v(str(item)) for item in items if str(item).strip())
        if isinstance(items, list)
        else ()
    )


def _more(debate: Debate, found: dict[str, Any]) -> tuple[str, ...]:
    """The conditions for consensus, and the people's question where the panel could not decide."""
    conditions = tuple(f"⟦boardroom.conditions⟧: {c}" for c in _listed(found, "conditions"))
    question = str(found.get("question") or "")
    asked = (f"⟦boardroom.question⟧: {v(question)}",) if escalates(debate) and question else ()
    people = tuple(
        f"{v(line.who)}: {v(line.text)}" for line in debate.people.lines if line.question
    )
    return conditions + asked + people
