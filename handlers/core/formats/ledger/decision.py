"""The ledger's outcome as a decision record: each participant's standpoint is what drove the
debate and its last word an option (the claims it agreed to for it, the ones it contested
against it); the ratified ledger is the choice, in its items' precise wording; the open
questions are what it leaves unresolved, the amendments and the confirmation round how it was
checked. Open exploration decides nothing: its record is proposed, its findings on the front
page."""

from __future__ import annotations

from collections.abc import Mapping

from handlers.core.formats.base import by_rules, strings
from handlers.core.formats.decision import ConsideredOption, DecisionRecord, Status
from handlers.core.formats.keys import verbatim as v
from handlers.core.formats.ledger.text import (
    LEDGER,
    k,
    latest_each,
    ledger_items,
    unconfirmed_mark,
)
from handlers.core.model import Debate, Turn
from handlers.core.reply.parser import json_block


def ledger_decision(
    debate: Debate,
    turns: tuple[Turn, ...],
    *,
    standpoints: tuple[tuple[str, str], ...],
    converging: bool,
    confirmed: bool,
    notes: str,
) -> DecisionRecord:
    """The record once the front page is final (`confirmed`: both sides confirmed each item;
    `notes`: what the confirmation round left open)."""
    items = ledger_items(debate.output_of(LEDGER) or "")
    agreed = tuple(
        f"**{i}** {v(text)}{unconfirmed_mark(debate, notes, i)}"
        for i, part, text in items
        if part == "agreed"
    )
    ratified = converging and bool(agreed) and not by_rules(debate, LEDGER)
    ordered = sorted(turns, key=lambda turn: turn.number)
    first = {turn.seat: turn for turn in reversed(ordered)}
    latest = {turn.seat: turn for turn in latest_each(turns)}
    contested = (claim for turn in ordered for claim in strings(_block(turn).get("contested")))
    return DecisionRecord(
        Status.ACCEPTED if ratified else Status.PROPOSED,
        drivers=tuple(v(claim) for claim in dict.fromkeys(contested)),
        options=tuple(
            _option(debate, seat, stand, first.get(seat), latest.get(seat))
            for seat, stand in standpoints
        ),
        chosen="; ".join(agreed) if ratified else "",
        because="⟦adr.ledger_because⟧" if ratified else "",
        good=agreed,
        bad=tuple(f"**{i}** {v(text)}" for i, part, text in items if part == "open"),
        confirmation=(
            *(f"**{i}** {v(text)}" for i, part, text in items if part == "amendments"),
            *((k("confirmed_note"),) if confirmed else ()),
        ),
        more=() if converging else (k("explored"),),
        undecided="" if converging else "⟦adr.explored⟧",
    )


def _option(
    debate: Debate, seat: str, stand: str, first: Turn | None, latest: Turn | None
) -> ConsideredOption:
    """A participant's standpoint: its opening opinion, then the claims it agreed and still
    contested in its last word."""
    opinion = _block(first).get("opinion")
    last = _block(latest)
    return ConsideredOption(
        f"{v(debate.name_of(seat))} — {k(f'standpoint_{stand}')}",
        v(opinion.strip()) if isinstance(opinion, str) else "",
        tuple(v(claim) for claim in strings(last.get("agreed"))),
        tuple(v(claim) for claim in strings(last.get("contested"))),
    )


def _block(turn: Turn | None) -> Mapping[str, object]:
    """The turn's JSON block (tolerant: none is empty)."""
    return (json_block(turn.text) if turn is not None else None) or {}
