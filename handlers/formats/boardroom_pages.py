"""The boardroom's results and pages, pure. Words people read are locale keys written as
`⟦key⟧`; the wiki and the room fill them from the locale files (handlers.formats.localize)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from handlers.formats.boardroom_reply import VOTES, Position, parse_position
from handlers.model import Debate, Turn, UserQuestion

MAX_OPTIONS = 4  # buttons under the question

CONSENSUS, MAJORITY, DIVIDED = "CONSENSUS", "MAJORITY", "DIVIDED"
ROUND1_LAST = "round1/last"  # the last turn number of round 1 (kept in debate.outputs)
SYNTHESIS = "synthesis"
DECISION = "decision"
MIN_LISTED = 2  # the seed: at least two risks and two metrics


def result(final_votes: list[str | None]) -> str:
    """All equal: CONSENSUS; a strict majority: MAJORITY; otherwise DIVIDED (no vote counts
    as a vote of its own)."""
    counted = Counter(vote for vote in final_votes if vote)
    top = max(counted.values(), default=0)
    if final_votes and top == len(final_votes):
        return CONSENSUS
    return MAJORITY if top * 2 > len(final_votes) else DIVIDED


def vote_in(debate: Debate, round_number: int, seat: str) -> str | None:
    """A participant's vote in a round, as noted when its answer came."""
    return dict(debate.outputs).get(f"vote/{round_number}/{seat}") or None


def result_of(debate: Debate) -> str:
    """The result from every participant's final vote (round 1's where round 2 has none)."""
    finals = [vote_in(debate, 2, s) or vote_in(debate, 1, s) for s in debate.ids]
    return result(finals)


def round_of(debate: Debate, number: int) -> int:
    """Which round turn `number` belongs to."""
    last = dict(debate.outputs).get(ROUND1_LAST)
    return 1 if last is None or number <= int(last) else 2


_ORDINAL = {1: "first", 2: "second"}


def seats_in(debate: Debate, round_number: int) -> tuple[str, ...]:
    """The members with an answer in that round, in roster order."""
    seats = {who for n, who in debate.log if round_of(debate, n) == round_number}
    return tuple(seat for seat in debate.ids if seat in seats)


def gaps(debate: Debate) -> tuple[tuple[str, str], ...]:
    """(member, its answer's missing parts) for this round's incomplete answers."""
    notes = dict(debate.outputs)
    found = ((seat, notes.get(f"missing/{debate.round}/{seat}", "")) for seat in debate.ids)
    return tuple((seat, missing) for seat, missing in found if missing)


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
    """The decision on the table."""
    proposal = debate.proposal
    return (
        ("topic", proposal.topic),
        ("question", decision_of(debate)),
        ("context", proposal.context),
    )


def decision_of(debate: Debate) -> str:
    """The question as a concrete decision, as the moderator stated it (else as detected)."""
    found = _object(debate.output_of(DECISION) or "").get("decision")
    text = str(found).strip() if isinstance(found, str) else ""
    return text or debate.proposal.question or debate.proposal.topic


def fallback_decision(debate: Debate) -> str:
    """Without a model the detected question stands."""
    return json.dumps({"decision": debate.proposal.question}, ensure_ascii=False)


def panel_line(debate: Debate) -> str:
    """`AG (architect), Claude (security reviewer)`."""
    return ", ".join(f"{m.name} ({m.persona})" if m.persona else m.name for m in debate.roster)


def vote_lines(debate: Debate) -> str:
    """One line per participant: id, round-1 vote, final vote (for the synthesis prompt)."""
    return "\n".join(
        f"- {seat}: {vote_in(debate, 1, seat) or '-'} -> {vote_in(debate, 2, seat) or '-'}"
        for seat in debate.ids
    )


def missing_parts(found: Position, round_number: int) -> tuple[str, ...]:
    """The contract's parts an answer lacks (names as in the contract)."""
    wanted: list[tuple[str, bool]] = [("vote", found.vote is not None)]
    if round_number == 1:
        wanted += [
            ("argument", bool(found.argument)),
            ("risks (2+)", len(found.risks) >= MIN_LISTED),
            ("conditions", bool(found.conditions)),
            ("metrics (2+)", len(found.metrics) >= MIN_LISTED),
        ]
    else:
        wanted += [
            ("agreement", bool(found.agreement)),
            ("disagreement", bool(found.disagreement)),
            ("insight", bool(found.insight)),
            ("consensus_condition", bool(found.consensus)),
        ]
    return tuple(name for name, present in wanted if not present)


def synthesis_of(debate: Debate) -> dict[str, Any]:
    """The moderator's synthesis as stored (a broken one reads as empty)."""
    return _object(debate.output_of(SYNTHESIS) or "")


def _object(text: str) -> dict[str, Any]:
    """The JSON object in a task's output; empty if there is none."""
    start, end = text.find("{"), text.rfind("}")
    try:
        found = json.loads(text[start : end + 1]) if start >= 0 else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def question_for_people(debate: Debate) -> UserQuestion | None:
    """Irreconcilable positions: the question the people decide instead of a recommendation
    (its options become buttons). None when the synthesis recommends."""
    found = synthesis_of(debate)
    if not found.get("irreconcilable"):
        return None
    options = found.get("options") or []
    listed = tuple(str(o).strip() for o in options if str(o).strip())[:MAX_OPTIONS]
    text = str(found.get("question") or "").strip() or decision_of(debate)
    return UserQuestion(text=text, options=listed if isinstance(options, list) else ())


def fallback_synthesis(debate: Debate, shown: tuple[Turn, ...]) -> str:
    """The synthesis without a model: the participants' own words, quoted, in the same shape."""
    finals: dict[str, Position] = {}
    for turn in (t for t in shown if round_of(debate, t.number) == 2):  # a repair completes
        found = parse_position(turn.text, 2)
        finals[turn.seat] = finals[turn.seat].merged(found) if turn.seat in finals else found
    named = {seat: debate.name_of(seat) for seat in debate.ids}
    divided = result_of(debate) == DIVIDED
    out = {
        "tracker": {seat: p.why_changed for seat, p in finals.items() if p.why_changed},
        "tensions": [f"{named[s]}: {p.disagreement}" for s, p in finals.items() if p.disagreement][
            :3
        ],
        "insight": next((f"{named[s]}: {p.insight}" for s, p in finals.items() if p.insight), ""),
        "conditions": [f"{named[s]}: {p.consensus}" for s, p in finals.items() if p.consensus],
        "recommendation": "" if divided else _majority_line(debate),
        "guardrails": [],
        "irreconcilable": divided,
        "question": decision_of(debate) if divided else "",
    }
    return json.dumps(out, ensure_ascii=False)


def _majority_line(debate: Debate) -> str:
    finals = [vote_in(debate, 2, s) or vote_in(debate, 1, s) for s in debate.ids]
    top = Counter(v for v in finals if v).most_common(1)
    return vote_word(top[0][0]) if top else ""


def render(debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
    """A participant's round page (its answers verbatim), or the synthesis."""
    found = round_page(page)
    if found is not None:
        number, seat = found
        own = [t for t in turns if t.seat == seat and round_of(debate, t.number) == number]
        title = (
            f"{debate.proposal.topic} — ⟦boardroom.{_ORDINAL[number]}_round_title⟧ — "
            f"{debate.name_of(seat)}"
        )
        body = "\n\n---\n\n".join(t.text for t in own) or "-"
        return title, f"# {title}\n\n{body}\n"
    return f"{debate.proposal.topic} — ⟦boardroom.synthesis_title⟧", synthesis_page(debate)


def tracker_rows(debate: Debate) -> list[tuple[str, str, str, bool, str]]:
    """(name, round-1 vote, final vote, changed, why) per participant."""
    why = synthesis_of(debate).get("tracker") or {}
    notes = dict(debate.outputs)
    rows = []
    for seat in debate.ids:
        first, final = vote_in(debate, 1, seat), vote_in(debate, 2, seat)
        changed = bool(first and final and first != final)
        reason = str(why.get(seat, "")) if isinstance(why, dict) else ""
        reason = reason or notes.get(f"why/{seat}", "")
        rows.append(
            (debate.name_of(seat), first or "", final or "", changed, reason if changed else "")
        )
    return rows


_COLUMNS = ("who", "first", "final", "changed", "why")


def synthesis_page(debate: Debate) -> str:
    """The seed's synthesis: vote tracker table, result, changes, tensions, insight, conditions,
    and the recommendation (or the question to the people)."""
    found = synthesis_of(debate)
    lines = [
        f"# ⟦boardroom.synthesis_title⟧: {decision_of(debate)}",
        "",
        f"**⟦boardroom.panel⟧:** {panel_line(debate)}",
        "",
        "## ⟦boardroom.tracker⟧",
        "",
        "| " + " | ".join(f"⟦boardroom.col_{c}⟧" for c in _COLUMNS) + " |",
        "|---|---|---|---|---|",
    ]
    for name, first, final, changed, why in tracker_rows(debate):
        flag = "⟦boardroom.yes_changed⟧" if changed else "⟦boardroom.not_changed⟧"
        cell = why.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {name} | {vote_word(first)} | {vote_word(final)} | {flag} | {cell} |")
    lines += ["", f"## ⟦boardroom.result⟧: ⟦boardroom.result_{result_of(debate).lower()}⟧", ""]
    changes = [
        f"- {name}: {vote_word(first)} → {vote_word(final)}" + (f" — {why}" if why else "")
        for name, first, final, changed, why in tracker_rows(debate)
        if changed
    ]
    lines += ["## ⟦boardroom.changes⟧", "", *(changes or ["-"]), ""]
    for key, heading in (("tensions", "tensions"), ("conditions", "conditions")):
        items = found.get(key) or []
        lines += [f"## ⟦boardroom.{heading}⟧", ""]
        lines += [f"- {item}" for item in items] or ["-"]
        lines.append("")
    lines += ["## ⟦boardroom.insight⟧", "", str(found.get("insight") or "-"), ""]
    lines += _recommendation(found)
    decided = [f"- {line.who}: {line.text}" for line in debate.people if line.question]
    if decided:
        lines += ["", "## ⟦boardroom.people_decided⟧", "", *decided]
    return "\n".join(lines) + "\n"


def _recommendation(found: dict[str, Any]) -> list[str]:
    if found.get("irreconcilable"):
        return ["## ⟦boardroom.question⟧", "", str(found.get("question") or "-")]
    lines = ["## ⟦boardroom.recommendation⟧", "", str(found.get("recommendation") or "-")]
    guardrails = found.get("guardrails") or []
    if guardrails:
        lines += ["", "**⟦boardroom.guardrails⟧:**"] + [f"- {item}" for item in guardrails]
    return lines


def compact_block(debate: Debate) -> str:
    """The seed's closing block: question, panel, result, votes, tension, insight, advice."""
    found = synthesis_of(debate)
    tensions = found.get("tensions") or ["-"]
    advice = (
        f"⟦boardroom.question⟧: {found.get('question') or '-'}"
        if found.get("irreconcilable")
        else f"⟦boardroom.recommendation⟧: {found.get('recommendation') or '-'}"
    )
    lines = [
        "⟦boardroom.done⟧",
        "",
        f"⟦boardroom.question_label⟧: {decision_of(debate)}",
        f"⟦boardroom.panel⟧: {panel_line(debate)} ({len(debate.ids)})",
        f"⟦boardroom.result⟧: ⟦boardroom.result_{result_of(debate).lower()}⟧",
        "",
        "⟦boardroom.tracker⟧:",
    ]
    for name, first, final, _, _ in tracker_rows(debate):
        lines.append(f"  {name}: {vote_word(first)} → {vote_word(final)}")
    decided = [line for line in debate.people if line.question]
    lines += [
        "",
        f"⟦boardroom.main_tension⟧: {_one_line(str(tensions[0]))}",
        f"⟦boardroom.insight⟧: {_one_line(str(found.get('insight') or '-'))}",
        _one_line(advice),
        *(f"⟦boardroom.people_decided⟧: {d.who}: {_one_line(d.text)}" for d in decided),
        "",
        "⟦boardroom.full_report⟧: synthesis",
    ]
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(text.split())
