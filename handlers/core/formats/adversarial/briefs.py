"""The adversarial format's briefs: the seed's role and task briefs as prompt pieces, filled
from the stored debate (every role's answer relayed verbatim); its envelopes (manifest, audit,
fallback answers) are the seed's English, language-neutral pieces of prompts/."""

from __future__ import annotations

import re
from dataclasses import replace

from handlers.core.formats.adversarial.audit import (
    Audit,
    Evidence,
    Intake,
    Route,
    Tier,
    opposition_present,
    read_audit,
    requested_tier,
    route,
    typed_gaps,
)
from handlers.core.formats.adversarial.contract import sections
from handlers.core.formats.adversarial.words import reasons_words
from handlers.core.formats.base import Piece, PieceValue, agenda, output_of, people_said
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import strings_in
from handlers.core.model import Debate

EVIDENCE = "adversarial.evidence"  # what the people added on the card, in its form
PROBES = (("probe-cost", "cost-first"), ("probe-alternatives", "alternatives-first"))
MANIFEST_TOKENS = 4000  # the seed's cap on the context manifest
_RESERVE = 200  # the manifest's labels and its cut note
ROLE_LISTS = {
    "LITE": "Challenger, Reconciler",
    "STANDARD": "Advocate, Challenger, Reconciler",
    "FULL": "Advocate, Challenger, Probe 1, Probe 2, Reconciler, Validator",
}
_CONSTRAINTS = re.compile(r'--constraints\s+"([^"]+)"|\bCONSTRAINTS:\s*(.+)$', re.MULTILINE)


def people_texts(debate: Debate) -> tuple[str, ...]:
    """What the people gave: the conversation, the card's proposal, the evidence and
    constraints added on the card, and their words since."""
    proposal = debate.proposal
    lines = tuple(line.text for line in debate.people.lines)
    added = tuple(a.text for a in debate.setup.added if a.key == EVIDENCE)  # each person's
    return (proposal.topic, proposal.question, proposal.context, *added, *lines)


def constraints(debate: Debate, audit: Audit) -> str:
    """Caller constraints, verbatim: written by the people (`CONSTRAINTS: ...` or
    `--constraints "..."`), else as the audit found them, else none."""
    given = [
        (m.group(1) or m.group(2)).strip()
        for text in people_texts(debate)
        for m in _CONSTRAINTS.finditer(text)
    ]
    return "\n".join(given) or audit.constraints or "none"


def audit_of(debate: Debate) -> tuple[Audit, Route]:
    """The stored intake audit (the people's typed gaps if it has none) and its route as fixed."""
    audit = read_audit(output_of(debate, "intake"), debate.proposal.question)
    typed = typed_gaps(people_texts(debate)) if audit.known_gaps is None else None
    audit = audit if typed is None else replace(audit, known_gaps=typed)  # the people's word
    stored = output_of(debate, "route")
    if stored:
        return audit, Route.read(stored)
    return audit, route(audit, requested_tier(people_texts(debate)))


def manifest(audit: Audit) -> Piece:
    """The context manifest in the seed's transport envelope."""
    gaps = ["unknown"] if audit.known_gaps is None else list(audit.known_gaps) or ["none"]
    kept, cut = fitted(audit, "- ")
    values: tuple[tuple[str, PieceValue], ...] = (
        ("proposition", audit.proposition),
        ("focus", audit.decision_focus or "none"),
        ("evidence", (*(f"- {item_line(e)}" for e in kept), *cut)),
        ("gaps", tuple(f"- {gap}" for gap in gaps)),
        ("state", tuple(f"- {state}" for state in audit.optional_state or ("none",))),
    )
    return Piece("adversarial/manifest", values)


def seed_reasons(reasons: tuple[str, ...], separator: str, audit: Audit) -> str:
    """The routing's reasons as the roles read them: the locale's English, the seed's words."""
    return fill_keys(reasons_words(reasons, separator, audit), strings_in("en"))


def thin_line(audit: Audit, chosen: Route) -> PieceValue:
    """The CONTEXT-THIN flag every brief carries, or '-'."""
    if chosen.intake is not Intake.THIN:
        return "-"
    return Piece("adversarial/thin", (("reasons", seed_reasons(chosen.thin, "; ", audit)),))


def role_pieces(debate: Debate, role: str, answers: dict[str, str]) -> tuple[Piece, ...]:
    """The seed's brief for `role`, with what the tier lets it see (verbatim)."""
    audit, chosen = audit_of(debate)
    head = (("proposition", audit.proposition), ("audit", structural_audit(audit, chosen)))
    fenced = (("constraints", constraints(debate, audit)), ("thin", thin_line(audit, chosen)))
    envelope = (*head, ("manifest", manifest(audit)), *fenced)
    if role == "advocate":
        return (Piece("adversarial/advocate", envelope, additions=True),)
    advocate = answers.get("advocate", "") or _no_answer("Advocate")
    if role == "challenger":
        middle = (
            Piece("adversarial/lite_note")
            if chosen.tier is Tier.LITE
            else Piece("adversarial/case_advocate", (("case", advocate),))
        )
        task = Piece("adversarial/challenger_task", additions=True)
        return (Piece("adversarial/challenger_head", envelope), middle, task)
    cases = [Piece("adversarial/reconciler_head", head)]
    if chosen.tier is not Tier.LITE:
        cases.append(Piece("adversarial/case_advocate", (("case", advocate),)))
    challenger = answers.get("challenger", "") or _no_answer("Challenger")
    cases.append(Piece("adversarial/case_challenger", (("case", challenger),)))
    if chosen.tier is Tier.FULL:
        cases.append(Piece("adversarial/case_probes", (("probes", probe_lines(debate)),)))
    task_values = (*fenced, ("tier", chosen.tier.value))
    return (*cases, Piece("adversarial/reconciler_task", task_values, additions=True))


def _no_answer(role: str) -> Piece:
    return Piece("adversarial/no_answer", (("role", role),))


def probe_lines(debate: Debate) -> tuple[Piece, ...]:
    """`Probe n (framing): [STABLE] ... — key tension` for the Reconciler."""
    lines = []
    for n, (task, framing) in enumerate(PROBES, start=1):
        found = sections(output_of(debate, task))
        values = (
            ("n", str(n)),
            ("framing", framing),
            ("stable", found.get("STABLE", "not run")),
            ("tension", found.get("KEY-TENSION", "-")),
        )
        lines.append(Piece("adversarial/probe_line", values))
    return tuple(lines)


def fallback(task: str) -> Piece:
    """What a light role "answers" when the moderator model is unavailable (rules mode)."""
    framing = dict(PROBES).get(task)
    if framing is None:
        return Piece("adversarial/validator_fallback")
    return Piece("adversarial/probe_fallback", (("framing", framing),))


def task_piece(debate: Debate, task: str, answers: dict[str, str]) -> Piece:
    """The intake audit, a consistency probe, or the Validator."""
    if task == "intake":
        intake = (
            *agenda(debate),
            ("evidence", debate.added_text(EVIDENCE).strip() or "-"),
            ("people", people_said(debate)),
        )
        return Piece("adversarial/intake", intake)
    audit, chosen = audit_of(debate)
    audit_text = structural_audit(audit, chosen)
    values: tuple[tuple[str, PieceValue], ...]
    if task.startswith("probe-"):
        n, framing = next((i, f) for i, (t, f) in enumerate(PROBES, start=1) if t == task)
        values = (
            ("n", str(n)),
            ("framing", framing),
            ("proposition", audit.proposition),
            ("audit", audit_text),
            ("advocate", answers.get("advocate", "") or "-"),
            ("constraints", constraints(debate, audit)),
        )
        return Piece("adversarial/probe", values)
    values = (
        ("audit", audit_text),
        ("reconciler", answers.get("reconciler", "") or "-"),
        ("advocate", sections(answers.get("advocate", "")).get("EVIDENCE", "-")),
        ("challenger", sections(answers.get("challenger", "")).get("EVIDENCE", "-")),
        ("probes", probe_lines(debate) if chosen.tier is Tier.FULL else "-"),
        ("constraints", constraints(debate, audit)),
    )
    return Piece("adversarial/validator", values)


def tokens(text: str) -> int:
    """A rough token count: four ASCII characters a token, one for any other character
    (Hangul, accented letters: counted high, so the cap holds)."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    return ascii_chars // 4 + len(text) - ascii_chars


def item_line(item: Evidence) -> str:
    """One inventory item in the seed's shape."""
    return f"{item.id} | {item.item} | {item.stance}"


def fitted(audit: Audit, bullet: str = "") -> tuple[tuple[Evidence, ...], tuple[Piece, ...]]:
    """The inventory items the manifest carries under the seed's token cap, in order, and
    the note that says what was left out and where the whole is (none: nothing cut)."""
    rest = (
        audit.proposition,
        audit.decision_focus,
        *(audit.known_gaps or ()),
        *audit.optional_state,
    )
    spent = _RESERVE + sum(tokens(part) for part in rest)
    kept: list[Evidence] = []
    for item in audit.evidence:
        spent += tokens(item_line(item)) + 1
        if spent > MANIFEST_TOKENS:
            break
        kept.append(item)
    left = audit.evidence[len(kept) :]
    if not left:
        return audit.evidence, ()
    counts = (("left", str(len(left))), ("total", str(len(audit.evidence))))
    ends = (("first", left[0].id), ("last", left[-1].id))
    cut = Piece(
        "adversarial/manifest_cut",
        (("bullet", bullet), ("cap", f"{MANIFEST_TOKENS:,}"), *counts, *ends),
    )
    return tuple(kept), (cut,)


def debate_line(audit: Audit, chosen: Route) -> str:
    """The seed's `DEBATE:` log line."""
    return (
        f"DEBATE: tier={chosen.tier.value.lower()}, proposition={audit.proposition[:80]}, "
        f"evidence={len(audit.evidence)}, roles=[{ROLE_LISTS[chosen.tier.value]}]"
    )


def structural_audit(audit: Audit, chosen: Route) -> Piece:
    """The audit every role receives, verbatim, in the seed's English (people read it in their
    language: words.audit_notice), with the items the manifest carries."""
    gaps = "unknown" if audit.known_gaps is None else "; ".join(audit.known_gaps) or "none"
    kept, cut = fitted(audit, "  - ")
    thin = seed_reasons(chosen.thin, "; ", audit)
    values: tuple[tuple[str, PieceValue], ...] = (
        ("proposition", audit.proposition),
        ("focus", audit.decision_focus or "none"),
        ("count", str(len(audit.evidence))),
        ("evidence", (*(f"  - {item_line(e)}" for e in kept), *cut)),
        ("opposition", "yes" if opposition_present(audit) else "no"),
        ("gaps", gaps),
        ("state", "; ".join(audit.optional_state) or "none"),
        ("tier", chosen.tier.value),
        ("reasons", seed_reasons(chosen.reasons, ", ", audit)),
        ("intake", chosen.intake.value),
        ("thin", f"- CONTEXT-THIN: {thin}" if thin else ""),
    )
    return Piece("adversarial/structural_audit", values)
