"""A squad over five narrowed to the five most relevant members (the seed's limit), pure: the
moderator picks them with its decision, with a reason; without a usable pick the rules take
the members whose role shares most words with the question."""

from __future__ import annotations

import re
from dataclasses import replace

from handlers.core.effects import Notify
from handlers.core.formats.base import Piece, by_rules
from handlers.core.formats.boardroom_pages import DECISION, named
from handlers.core.formats.keys import verbatim
from handlers.core.model import Debate, Participant
from handlers.core.reply_parser import task_object

MAX_PANEL = 5
SQUAD, NARROWED = "squad", "narrowed"  # kept in debate.outputs: the whole squad, and why
_WORD = re.compile(r"\w{3,}")


def narrow_piece(debate: Debate) -> tuple[Piece, ...]:
    """The decision task's request to pick the panel, when the squad is over five."""
    if len(debate.roster) <= MAX_PANEL:
        return ()
    members = "\n".join(f"- {m.id}: {named(m)}" for m in debate.roster)
    return (Piece("boardroom_narrow", (("members", members), ("count", str(MAX_PANEL)))),)


def narrowed(debate: Debate) -> tuple[Debate, tuple[Notify, ...]]:
    """The debate with its panel of five and a notice of who sits, who not, and why."""
    if len(debate.roster) <= MAX_PANEL:
        return debate, ()
    chosen, reason = _picked(debate)
    if len(chosen) != MAX_PANEL or not reason or by_rules(debate, DECISION):
        chosen, reason = most_relevant(debate), "⟦boardroom.narrowed_rules⟧"
    else:
        reason = verbatim(reason)
    panel = tuple(m for m in debate.roster if m.id in chosen)
    left = ", ".join(m.name for m in debate.roster if m.id not in chosen)
    count = str(len(debate.roster))
    squad = f"{', '.join(named(m) for m in debate.roster)} ({count})"
    outputs = (*debate.outputs, (SQUAD, squad), (NARROWED, reason))
    kept = ", ".join(m.name for m in panel)
    said = (("count", count), ("kept", kept), ("left", left), ("reasons", reason))  # keyed
    seated = replace(debate, roster=panel, order=tuple(m.id for m in panel), outputs=outputs)
    return seated, (Notify("boardroom.narrowed", said),)


def most_relevant(debate: Debate) -> tuple[str, ...]:
    """The five whose name and role share most words with the decision (roster order on a tie)."""
    proposal = debate.proposal
    text = " ".join((proposal.topic, proposal.question, proposal.context)).casefold()

    def score(member: Participant) -> int:
        words = set(_WORD.findall(f"{member.name} {member.persona}".casefold()))
        return sum(word in text for word in words)

    ranked = sorted(debate.roster, key=lambda m: -score(m))  # stable: roster order on a tie
    return tuple(m.id for m in ranked[:MAX_PANEL])


def _picked(debate: Debate) -> tuple[tuple[str, ...], str]:
    """The moderator's pick (ids, or names as it may write them) and its reason."""
    found = task_object(debate.output_of(DECISION) or "")
    listed = found.get("panel")
    by_name = {key.casefold(): m.id for m in debate.roster for key in (m.id, m.name)}
    names = listed if isinstance(listed, list) else []
    ids = tuple(
        dict.fromkeys(by_name[n.casefold()] for n in map(str, names) if n.casefold() in by_name)
    )
    reason = found.get("reason")
    return ids, reason.strip() if isinstance(reason, str) else ""
