"""The boardroom's pages and closing block, keyed and `verbatim` (keys.py)."""

from __future__ import annotations

from typing import Any

from handlers.core.formats.boardroom.advisor import WHO, moderator_reviewed, panel_ids
from handlers.core.formats.boardroom.pages import (
    decision_of,
    escalates,
    panel_line,
    reasons_of,
    result_of,
    reviewed,
    round_of,
    round_page,
    synthesis_of,
    vote_in,
    vote_word,
)
from handlers.core.formats.boardroom.reply import VOTES
from handlers.core.formats.boardroom.squad import NARROWED, SQUAD
from handlers.core.formats.keys import verbatim as v
from handlers.core.model import Debate, Turn

_ORDINAL = {1: "first", 2: "second"}


def recommendation_of(found: dict[str, Any]) -> str:
    """The moderator's recommendation verbatim, else the rules' majority vote's word, else `-`."""
    own = str(found.get("recommendation") or "")
    if own:
        return v(own)
    majority = found.get("majority")
    return vote_word(majority) if isinstance(majority, str) and majority in VOTES else "-"


def render(debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
    """A participant's round page (its answers verbatim), or the synthesis."""
    found = round_page(page)
    if found is not None:
        number, seat = found
        own = [t for t in turns if t.seat == seat and round_of(debate, t.number) == number]
        title = (
            f"{v(debate.proposal.topic)} — ⟦boardroom.{_ORDINAL[number]}_round_title⟧ — "
            f"{v(debate.name_of(seat))}"
        )
        body = "\n\n---\n\n".join(v(t.text) for t in own) or "-"
        return title, f"# {title}\n\n{body}\n"
    return f"{v(debate.proposal.topic)} — ⟦boardroom.synthesis_title⟧", synthesis_page(debate)


def tracker_rows(debate: Debate) -> list[tuple[str, str, str, bool, str]]:
    """(name, round-1 vote, final vote, changed, why) per participant; name, why `verbatim`."""
    why = reasons_of(synthesis_of(debate))
    notes = dict(debate.moderation.outputs)
    rows = []
    for seat in panel_ids(debate):
        first, final = vote_in(debate, 1, seat), vote_in(debate, 2, seat)
        changed = bool(first and final and first != final)
        reason = why.get(seat, "") or notes.get(f"why/{seat}", "")
        shown = v(reason) if changed else ""
        rows.append((v(debate.name_of(seat)), first or "", final or "", changed, shown))
    return rows


_COLUMNS = ("who", "first", "final", "changed", "why")


def synthesis_page(debate: Debate) -> str:
    """The seed's synthesis page, in the seed's order."""
    found = synthesis_of(debate)
    day = debate.setup.started_at.date().isoformat() if debate.setup.started_at else "-"
    lines = [
        f"# ⟦boardroom.synthesis_title⟧: {v(decision_of(debate))}",
        "",
        f"**⟦boardroom.date⟧:** {day}  ",
        f"**⟦boardroom.squad⟧:** {squad_line(debate)}  ",
        f"**⟦boardroom.agents⟧:** {v(panel_line(debate))}",
        "",
        f"> {_review_note(debate, found)}",
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
    lines += [*_listed(found, "tensions"), "## ⟦boardroom.insight⟧", ""]
    lines += [v(str(found.get("insight") or "-")), "", *_listed(found, "conditions")]
    lines += _recommendation(debate, found)
    decided = [f"- {v(line.who)}: {v(line.text)}" for line in debate.people.lines if line.question]
    if decided:
        lines += ["", "## ⟦boardroom.people_decided⟧", "", *decided]
    return "\n".join(lines) + "\n"


def squad_line(debate: Debate) -> str:
    """The whole squad and its size; narrowed, why these agents sit (keyed)."""
    notes = dict(debate.moderation.outputs)
    line = v(notes.get(SQUAD) or f"{panel_line(debate)} ({len(panel_ids(debate))})")
    if NARROWED in notes:  # already keyed or verbatim
        line += f" — ⟦boardroom.narrowed_label⟧: {notes[NARROWED]}"
    return line


def _review_note(debate: Debate, found: dict[str, Any]) -> str:
    """The seed's note that the advisor reviewed the synthesis, on which model (and what it
    changed), or that nobody did."""
    said = _one_line(str(found.get("review") or "")) if reviewed(debate) else ""
    return f"{_review_word(debate)} {v(said)}".strip()


def _listed(found: dict[str, Any], key: str) -> list[str]:
    items = found.get(key) or []
    lines = [f"- {v(str(item))}" for item in items] if isinstance(items, list) else []
    return [f"## ⟦boardroom.{key}⟧", "", *(lines or ["-"]), ""]


def _recommendation(debate: Debate, found: dict[str, Any]) -> list[str]:
    if escalates(debate):
        return ["## ⟦boardroom.question⟧", "", v(str(found.get("question") or "-"))]
    lines = ["## ⟦boardroom.recommendation⟧", "", recommendation_of(found)]
    guardrails = found.get("guardrails") or []
    if guardrails:
        lines += ["", "**⟦boardroom.guardrails⟧:**"] + [f"- {v(str(g))}" for g in guardrails]
    return lines


def compact_block(debate: Debate) -> str:
    """The seed's closing block: question, panel, result, votes, tension, insight, advice."""
    found = synthesis_of(debate)
    tensions = found.get("tensions") or ["-"]
    advice = (
        f"⟦boardroom.question⟧: {v(str(found.get('question') or '-'))}"
        if escalates(debate)
        else f"⟦boardroom.recommendation⟧: {recommendation_of(found)}"
    )
    lines = [
        "⟦boardroom.done⟧",
        "",
        f"⟦boardroom.question_label⟧: {v(decision_of(debate))}",
        f"⟦boardroom.squad⟧: {squad_line(debate)}",
        f"⟦boardroom.result⟧: ⟦boardroom.result_{result_of(debate).lower()}⟧",
        "",
        "⟦boardroom.tracker⟧:",
    ]
    for name, first, final, _, _ in tracker_rows(debate):
        lines.append(f"  {name}: {vote_word(first)} → {vote_word(final)}")
    decided = [line for line in debate.people.lines if line.question]
    lines += [
        "",
        f"⟦boardroom.main_tension⟧: {v(_one_line(str(tensions[0])))}",
        f"⟦boardroom.insight⟧: {v(_one_line(str(found.get('insight') or '-')))}",
        _one_line(advice),
        *(f"⟦boardroom.people_decided⟧: {v(d.who)}: {v(_one_line(d.text))}" for d in decided),
        "",
        f"⟦boardroom.full_report⟧: ⟦boardroom.page_synthesis⟧ — {_review_word(debate)}",
    ]
    return "\n".join(lines)


def _review_word(debate: Debate) -> str:
    """`Reviewed by the advisor: Claude (claude-opus-4-1).`, by the moderator's second pass
    (its model named), or not reviewed."""
    if not reviewed(debate):
        return "⟦boardroom.not_reviewed⟧"
    seat = debate.output_of(WHO)
    if seat:
        return f"⟦boardroom.reviewed_by⟧: {v(seat)}."
    return f"⟦boardroom.reviewed_by_moderator⟧: {v(moderator_reviewed(debate))}."


def _one_line(text: str) -> str:
    return " ".join(text.split())
