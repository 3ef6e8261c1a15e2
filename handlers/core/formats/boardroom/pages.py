"""The boardroom's results as stored (votes, rounds, decision, synthesis; report.py
renders them). The squad that sits is squad.py's."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from handlers.core.formats.base import agenda, by_rules, people_said
from handlers.core.formats.boardroom.advisor import ADVISOR, SYNTHESIS, panel, panel_ids
from handlers.core.formats.boardroom.reply import VOTES, Position, parse_position
from handlers.core.model import Debate, Participant, Turn, UserQuestion
from handlers.core.reply.parser import task_object
from handlers.core.shorten import shorten

MAX_OPTIONS = 4  # buttons under the question

CONSENSUS, MAJORITY, DIVIDED = "CONSENSUS", "MAJORITY", "DIVIDED"
ROUND1_LAST = "round1/last"  # the last turn number of round 1 (kept in debate.outputs)
DECISION = "decision"
SUMMARY_CHARS = 600  # of a member's argument and of its consensus condition, for the advisor


def result(final_votes: list[str | None]) -> str:
    """All equal: CONSENSUS; a strict majority: MAJORITY; else DIVIDED (no vote counts as one)."""
    counted = Counter(vote for vote in final_votes if vote)
    top = max(counted.values(), default=0)
    if final_votes and top == len(final_votes):
        return CONSENSUS
    return MAJORITY if top * 2 > len(final_votes) else DIVIDED


def vote_in(debate: Debate, round_number: int, seat: str) -> str | None:
    """A participant's vote in a round, as noted when its answer came."""
    return debate.output_of(f"vote/{round_number}/{seat}") or None


def final_votes(debate: Debate) -> dict[str, str | None]:
    """Each participant's final vote: round 2's, else round 1's."""
    return {s: vote_in(debate, 2, s) or vote_in(debate, 1, s) for s in panel_ids(debate)}


def result_of(debate: Debate) -> str:
    """The result from every participant's final vote."""
    return result(list(final_votes(debate).values()))


def round_of(debate: Debate, number: int) -> int:
    """Which round turn `number` belongs to."""
    last = debate.output_of(ROUND1_LAST)
    return 1 if last is None or number <= int(last) else 2


def seats_in(debate: Debate, round_number: int) -> tuple[str, ...]:
    """The members with an answer in that round, in roster order."""
    seats = {who for n, who in debate.floor.log if round_of(debate, n) == round_number}
    return tuple(seat for seat in panel_ids(debate) if seat in seats)


def gaps(debate: Debate) -> tuple[tuple[str, str], ...]:
    """(member, its answer's missing parts, if any) in this round."""
    return tuple(
        (s, debate.output_of(f"missing/{debate.floor.round}/{s}") or "") for s in panel_ids(debate)
    )


def round_page(page: str) -> tuple[int, str] | None:
    """`round-1/claude` -> (1, "claude")."""
    head, _, seat = page.partition("/")
    if head in ("round-1", "round-2") and seat:
        return int(head[-1]), seat
    return None


def vote_word(vote: str | None) -> str:
    """The vote as a locale key (SIM / NÃO / CONDICIONAL in pt-BR)."""
    return f"⟦boardroom.vote_{vote}⟧" if vote in VOTES else "⟦boardroom.vote_none⟧"


def agenda_values(debate: Debate) -> tuple[tuple[str, str], ...]:
    """The decision on the table: the agenda, its question as the moderator stated it."""
    return tuple({**dict(agenda(debate)), "question": decision_of(debate)}.items())


def decision_of(debate: Debate) -> str:
    """The question as a concrete decision, as the moderator stated it (else as detected)."""
    found = task_object(debate.output_of(DECISION) or "").get("decision")
    text = str(found).strip() if isinstance(found, str) else ""
    return text or debate.proposal.question or debate.proposal.topic


def fallback_decision(debate: Debate) -> str:
    """Without a model the detected question stands."""
    return json.dumps({"decision": debate.proposal.question}, ensure_ascii=False)


def panel_line(debate: Debate) -> str:
    """`AG (architect), Claude (security reviewer)`."""
    return ", ".join(named(m) for m in panel(debate))


def named(member: Participant) -> str:
    """`AG (architect)`."""
    return f"{member.name} ({member.persona})" if member.persona else member.name


def vote_lines(debate: Debate) -> str:
    """One line per participant: id, round-1 vote, final vote (for the synthesis prompt)."""
    return "\n".join(f"- {seat}: {_votes(debate, seat)}" for seat in panel_ids(debate))


def _votes(debate: Debate, seat: str) -> str:
    return f"{vote_in(debate, 1, seat) or '-'} -> {vote_in(debate, 2, seat) or '-'}"


def synthesis_of(debate: Debate) -> dict[str, Any]:
    """The synthesis as the advisor revised it, else the draft (a broken one reads as empty)."""
    return task_object(debate.output_of(ADVISOR) or debate.output_of(SYNTHESIS) or "")


def reviewed(debate: Debate) -> bool:
    """True if a model reviewed the draft (the advisor's fallback keeps the draft unreviewed)."""
    return debate.output_of(ADVISOR) is not None and not by_rules(debate, ADVISOR)


def escalation_reason(debate: Debate) -> str:
    """Who found the positions irreconcilable, as a locale key: the advisor that reviewed,
    else the moderator's draft, else nobody (the rules: a divided panel, no model to weigh it)."""
    if reviewed(debate):
        return "⟦boardroom.escalate_by_advisor⟧"
    drafted = debate.output_of(SYNTHESIS) is not None and not by_rules(debate, SYNTHESIS)
    return "⟦boardroom.escalate_by_draft⟧" if drafted else "⟦boardroom.escalate_by_rules⟧"


def escalates(debate: Debate) -> bool:
    """STOP: only a divided panel whose positions the synthesis finds irreconcilable goes to
    the people; a consensus or a majority ends with its synthesis whatever a model says."""
    return result_of(debate) == DIVIDED and bool(synthesis_of(debate).get("irreconcilable"))


def reasons_of(found: dict[str, Any]) -> dict[str, str]:
    """Why each member's vote changed, by id: the schema's list of `{member, why}` (a response
    schema cannot hold a dict), or the object a synthesis stored before it had one."""
    tracker = found.get("tracker")
    if isinstance(tracker, dict):
        return {str(seat).strip().lower(): str(why) for seat, why in tracker.items()}
    entries = [e for e in tracker if isinstance(e, dict)] if isinstance(tracker, list) else []
    return {str(e.get("member", "")).strip().lower(): str(e.get("why") or "") for e in entries}


def question_for_people(debate: Debate) -> UserQuestion | None:
    """The question the people decide when positions are irreconcilable (options: buttons)."""
    if not escalates(debate):
        return None
    found = synthesis_of(debate)
    options = found.get("options") or []
    listed = tuple(str(o).strip() for o in options if str(o).strip())[:MAX_OPTIONS]
    text = str(found.get("question") or "").strip() or decision_of(debate)
    return UserQuestion(text=text, options=listed if isinstance(options, list) else ())


def advisor_values(debate: Debate, shown: tuple[Turn, ...]) -> tuple[tuple[str, str], ...]:
    """The advisor's request: each member's position in short, the constraints, the draft."""
    firsts, finals = _positions(debate, shown, 1), _positions(debate, shown, 2)
    empty = Position()
    positions = "\n".join(
        f"- {seat}, {named(debate.member(seat))}: {_votes(debate, seat)}"
        f"\n  {_short(firsts.get(seat, empty).argument)}"
        f"\n  {_short(finals.get(seat, empty).consensus)}"
        for seat in panel_ids(debate)
    )
    return (
        *agenda_values(debate),
        ("people", people_said(debate)),
        ("result", result_of(debate)),
        ("positions", positions),
        ("draft", debate.output_of(SYNTHESIS) or "{}"),
    )


def _short(text: str) -> str:
    return shorten(" ".join(text.split()), SUMMARY_CHARS) or "-"


def fallback_synthesis(debate: Debate, shown: tuple[Turn, ...]) -> str:
    """The synthesis without a model: the participants' own words, quoted, in the same shape;
    the majority's vote as the recommendation, guarded by where its members said their
    position works and fails (their round-1 conditions)."""
    firsts, finals = _positions(debate, shown, 1), _positions(debate, shown, 2)
    divided = result_of(debate) == DIVIDED
    majority = "" if divided else _majority(debate)

    def said(part: str) -> list[str]:
        return [
            f"{debate.name_of(s)}: {getattr(p, part)}"
            for s, p in finals.items()
            if getattr(p, part)
        ]

    out = {
        "tracker": [
            {"member": seat, "why": p.why_changed} for seat, p in finals.items() if p.why_changed
        ],
        "tensions": said("disagreement")[:3],
        "insight": next(iter(said("insight")), ""),
        "conditions": said("consensus"),
        "recommendation": "",
        "majority": majority,  # a vote: the page words it
        "guardrails": _guardrails(debate, firsts, majority),
        "irreconcilable": divided,
        "question": decision_of(debate) if divided else "",
    }
    return json.dumps(out, ensure_ascii=False)


def _guardrails(debate: Debate, firsts: dict[str, Position], majority: str) -> list[str]:
    """Where each member of the majority said its position works and where it fails."""
    final = final_votes(debate)
    return [
        f"{debate.name_of(s)}: {firsts[s].conditions}"
        for s in panel_ids(debate)
        if majority and final[s] == majority and s in firsts and firsts[s].conditions
    ]


def _positions(debate: Debate, shown: tuple[Turn, ...], round_number: int) -> dict[str, Position]:
    """Each member's answer in a round, a repair completing it."""
    found: dict[str, Position] = {}
    for turn in (t for t in shown if round_of(debate, t.number) == round_number):
        read = parse_position(turn.text, round_number)
        found[turn.seat] = found[turn.seat].merged(read) if turn.seat in found else read
    return found


def _majority(debate: Debate) -> str:
    top = Counter(vote for vote in final_votes(debate).values() if vote).most_common(1)
    return top[0][0] if top else ""
