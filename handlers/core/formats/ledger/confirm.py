"""The ledger's one confirmation round (two-party, seed 004's "ratified ledger"): once the
ledger is written, both debaters read it and confirm or amend each agreed claim and amendment,
once; what both confirm stays agreed, the rest becomes an open question saying who did not
confirm it and what they proposed. The reply's contract is `schemas.LedgerConfirmation`."""

from __future__ import annotations

import json
import re

from handlers.core.effects import Notify
from handlers.core.formats.base import (
    REPAIR_SUFFIX,
    Piece,
    by_rules,
    output_of,
    repair_ask,
    strings,
    with_output,
)
from handlers.core.formats.ledger.schemas import LedgerConfirmation
from handlers.core.formats.ledger.text import (
    FRONT,
    KINDS,
    LEDGER,
    ledger_items,
    unconfirmed_notes,
)
from handlers.core.formats.plans import AskStep, Plan, TaskStep
from handlers.core.model import Debate, Turn
from handlers.core.reply.parser import json_block, task_object

# The round's step, the scribe's ledger before it, and the note of what it left open (both
# outputs written by code, never by a model).
CONFIRM, DRAFT, UNCONFIRMED = "confirm", "ledger-draft", "ledger-unconfirmed"
_FROM = f"{CONFIRM}:from"  # the first turn number the round gave out

# The confirming reply's required fields, as its contract (schemas.py) names them.
CONFIRM_CONTRACT = tuple(n for n, f in LedgerConfirmation.model_fields.items() if f.is_required())
_CONFIRM_KEYS = frozenset(LedgerConfirmation.model_fields)
# What one side said: the ids it confirmed as written, and (id, its own wording) it amended.
Confirmation = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]


CONFIRMED = ("agreed", "amendments")  # the parts both sides confirm (open ones stay open)
# An id in a person's own words, even with a particle after it (`A1과`, `A1, M1`).
_ID = re.compile(r"(?<![A-Za-z0-9])([AMQ][1-9][0-9]*)(?![0-9])")
_AMEND_LINE = re.compile(r"^\W*([AMQ][1-9][0-9]*)\W*[:：]\s*(.+)$", re.MULTILINE)


def confirm_missing(turn: Turn) -> tuple[str, ...]:
    """The confirming reply's required fields its JSON block lacks (`amended` may be left out)."""
    block = json_block(turn.text, _CONFIRM_KEYS)
    return tuple(name for name in CONFIRM_CONTRACT if block is None or name not in block)


def confirmation(turn: Turn) -> Confirmation:
    """(the ids confirmed as written, (id, own wording) of each amended) of a confirming reply,
    read tolerantly: the JSON block's `confirmed` and `amended` (an object, or a list of
    {id, wording}); without a block (a person's own words) a line `A2: wording` amends A2 and
    every other id named confirms it. An amended id is never also confirmed."""
    block = json_block(turn.text, _CONFIRM_KEYS)
    if block is None:
        amended = tuple((i, w.strip()) for i, w in _AMEND_LINE.findall(turn.text) if w.strip())
        named = _ordered(_ID.findall(_AMEND_LINE.sub("", turn.text)))
    else:
        named = _ordered([i.upper() for i in strings(block.get("confirmed"))])
        amended = _amendments(block.get("amended"))
    changed = {i for i, _ in amended}
    return tuple(i for i in named if i not in changed), amended


def _amendments(value: object) -> tuple[tuple[str, str], ...]:
    """`{"A2": "wording"}` or `[{"id": "A2", "wording": "..."}]`, whatever is readable (the
    reader gives an object as its (key, value) pairs)."""
    pairs: list[tuple[object, object]] = []
    if isinstance(value, tuple):
        pairs = [p for p in value if isinstance(p, tuple) and len(p) == 2]
    elif isinstance(value, list):
        for entry in value:
            fields = dict(p for p in entry if len(p) == 2) if isinstance(entry, tuple) else {}
            pairs.append((fields.get("id"), fields.get("wording")))
    return tuple(
        (i.strip().upper(), w.strip())
        for i, w in pairs
        if isinstance(i, str) and isinstance(w, str) and w.strip()
    )


def confirmed_ledger(ledger: str, said: tuple[tuple[str, Confirmation], ...]) -> tuple[str, str]:
    """The ledger after the one confirmation round, and its note of what stayed open: an
    agreed claim or amendment stands only if every seat in `said` (seat, its confirmation)
    confirmed it as written; any other becomes an open question, noted with the seats that did
    not confirm it and the wording each proposed instead (code decides, not a model)."""
    block = task_object(ledger)
    kept: dict[str, list[str]] = {part: [] for part, _ in KINDS}
    kept["open"] = list(strings(block.get("open")))
    notes = []
    for item_id, part, wording in ledger_items(ledger):
        if part not in CONFIRMED:
            continue
        doubting = [seat for seat, (confirmed, _) in said if item_id not in confirmed]
        if not doubting:
            kept[part].append(wording)
            continue
        kept["open"].append(wording)
        amended = [[seat, w] for seat, (_, changes) in said for i, w in changes if i == item_id]
        notes.append({"id": f"Q{len(kept['open'])}", "by": doubting, "amended": amended})
    return json.dumps(kept, ensure_ascii=False), json.dumps(notes, ensure_ascii=False)


def _ordered(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def stored(confirmed: Confirmation) -> str:
    """A confirmation as `noted` keeps it among the debate's outputs."""
    ids, amended = confirmed
    return json.dumps([list(ids), [list(a) for a in amended]], ensure_ascii=False)


def confirmation_of(kept: str) -> Confirmation:
    """A stored confirmation ('' : the seat did not answer, so it confirmed nothing)."""
    if not kept:
        return (), ()
    ids, amended = json.loads(kept)
    return tuple(ids), tuple((i, w) for i, w in amended)


def item_lines(debate: Debate) -> tuple[str | Piece, ...]:
    """The ledger's items, a line each with its id; one the confirmation round left open
    says who did not confirm it and what they proposed instead."""
    open_ids = unconfirmed_notes(debate.output_of(UNCONFIRMED) or "")
    lines: list[str | Piece] = []
    for i, _, text in ledger_items(debate.output_of(LEDGER) or ""):
        if i not in open_ids:
            lines.append(f"{i}: {text}")
            continue
        by, amended = open_ids[i]
        who = ", ".join(debate.name_of(s) for s in by)
        proposed = "; ".join(f"{debate.name_of(s)}: {w}" for s, w in amended) or "-"
        values = (("item", f"{i}: {text}"), ("who", who), ("proposed", proposed))
        lines.append(Piece("ledger/item_unconfirmed", values))
    return tuple(lines)


def confirming(debate: Debate) -> bool:
    """The current step is the confirmation round (or its one repair)."""
    return debate.floor.step.removesuffix(REPAIR_SUFFIX) == CONFIRM


def first_turn(debate: Debate) -> int:
    """The first turn number the round gave out (0 before it): a repair shows nothing of the
    other side's confirmation, asked alongside."""
    return int(output_of(debate, _FROM) or 0)


def ask(debate: Debate, ledger: str) -> Plan:
    """The written ledger to both sides at once; with no claim to confirm, none is left open
    and the front page follows."""
    if not {part for _, part, _ in ledger_items(ledger)} & set(CONFIRMED):
        return TaskStep(with_output(debate, UNCONFIRMED, ""), FRONT)
    asking = with_output(debate, _FROM, str(debate.last_number + 1))
    return AskStep(asking, CONFIRM, debate.ids, (Notify("ledger.confirming"),))


def repair_lacking(debate: Debate) -> AskStep | None:
    """The one repair request to each reply of this step that lacks part of its contract
    (None: none lacks any, or this is the repair already)."""
    gaps = tuple(
        (w, output_of(debate, f"missing:{w}"))
        for n, w in debate.floor.log
        if n in debate.floor.step_turns
    )
    return repair_ask(debate, gaps, "ledger.repair")


def answered(debate: Debate) -> Plan:
    """The round is in: one repair for a reply lacking its contract; then the ledger keeps as
    agreed only what both sides confirmed (the rest open), and the front page follows. A seat
    skipped confirmed nothing."""
    repair = repair_lacking(debate)
    if repair is not None:
        return repair
    said = tuple(
        (seat, confirmation_of(output_of(debate, f"confirm:{seat}"))) for seat in debate.ids
    )
    draft = debate.output_of(LEDGER) or ""
    ledger, notes = confirmed_ledger(draft, said)
    kept = with_output(with_output(debate, DRAFT, draft), UNCONFIRMED, notes)
    return TaskStep(with_output(kept, LEDGER, ledger, by_rules=by_rules(debate, LEDGER)), FRONT)
