"""The adversarial format's briefs: the seed's role and task briefs as prompt pieces, filled
from the stored debate (every role's answer relayed verbatim)."""

from __future__ import annotations

import re
from dataclasses import replace

from handlers.core.formats.adversarial_audit import (
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
from handlers.core.formats.adversarial_contract import sections
from handlers.core.formats.base import Piece, agenda, output_of, people_said
from handlers.core.model import Debate

EVIDENCE = "adversarial.evidence"  # what the people added on the card, in its form
PROBES = (("probe-cost", "cost-first"), ("probe-alternatives", "alternatives-first"))
MANIFEST_TOKENS = 4000  # the seed's cap on the context manifest
_RESERVE = 200  # the manifest's labels and its cut note
CUT = (
    "[manifest cut at {cap} tokens: {left} of {total} items left out ({first}..{last}); the "
    "whole inventory is the intake audit's, posted in the debate's thread and on its "
    "debate-result page]"
)
ROLE_LISTS = {
    "LITE": "Challenger, Reconciler",
    "STANDARD": "Advocate, Challenger, Reconciler",
    "FULL": "Advocate, Challenger, Probe 1, Probe 2, Reconciler, Validator",
}
# What a light role "answers" when the moderator model is unavailable (rules mode).
PROBE_FALLBACK = (
    "[FRAMING] {framing}\n[STRUCTURAL] stress=none\n"
    "[REASSESSMENT] not assessed: the moderator model was unavailable\n"
    "[STABLE] no — not assessed\n[KEY-TENSION] not assessed"
)
VALIDATOR_FALLBACK = (
    "[STRUCTURAL-ALIGNMENT]\nAudit respected: FAIL — not checked\n[GROUNDING]\n-\n"
    "[DIRECTION]\nProblem addressed: PARTIAL — not checked\n[RESULT] NOT-RUN\n"
    "[CAVEATS] the Validator could not run (the moderator model was unavailable): "
    "the decision is unvalidated"
)

_CONSTRAINTS = re.compile(r'--constraints\s+"([^"]+)"|\bCONSTRAINTS:\s*(.+)$', re.MULTILINE)


def people_texts(debate: Debate) -> tuple[str, ...]:
    """What the people gave: the conversation, the card's proposal, the evidence and
    constraints added on the card, and their words since."""
    proposal = debate.proposal
    lines = tuple(line.text for line in debate.people)
    added = tuple(a.text for a in debate.added if a.key == EVIDENCE)  # each person's
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
    """The stored intake audit (with the gaps the people typed when the audit has none) and
    its route (as fixed when the audit came in)."""
    audit = read_audit(output_of(debate, "intake"), debate.proposal.question)
    typed = typed_gaps(people_texts(debate)) if audit.known_gaps is None else None
    audit = audit if typed is None else replace(audit, known_gaps=typed)  # the people's word
    stored = output_of(debate, "route")
    if stored:
        return audit, Route.read(stored)
    return audit, route(audit, requested_tier(people_texts(debate)))


def manifest(audit: Audit) -> str:
    """The context manifest in the seed's transport envelope."""
    gaps = ["unknown"] if audit.known_gaps is None else list(audit.known_gaps) or ["none"]
    kept, cut = fitted(audit)
    return "\n".join(
        [
            f"PROPOSITION: {audit.proposition}",
            f"DECISION_FOCUS: {audit.decision_focus or 'none'}",
            "EVIDENCE_INVENTORY:",
            *(f"- {item_line(e)}" for e in kept),
            *([f"- {cut}"] if cut else []),
            "KNOWN_GAPS:",
            *(f"- {gap}" for gap in gaps),
            "OPTIONAL_STATE:",
            *(f"- {state}" for state in audit.optional_state or ("none",)),
        ]
    )


def thin_line(chosen: Route) -> str:
    """The CONTEXT-THIN flag every brief carries, or '-'."""
    if chosen.intake is not Intake.THIN:
        return "-"
    return f"CONTEXT-THIN: {'; '.join(chosen.thin)} (cap confidence at SPECULATIVE)"


def role_pieces(debate: Debate, role: str, answers: dict[str, str]) -> tuple[Piece, ...]:
    """The seed's brief for `role`, with what the tier lets it see (verbatim)."""
    audit, chosen = audit_of(debate)
    head = (("proposition", audit.proposition), ("audit", structural_audit(audit, chosen)))
    fenced = (("constraints", constraints(debate, audit)), ("thin", thin_line(chosen)))
    envelope = (*head, ("manifest", manifest(audit)), *fenced)
    if role == "advocate":
        return (Piece("adversarial_advocate", envelope, additions=True),)
    advocate = answers.get("advocate", "") or "(the Advocate gave no answer)"
    if role == "challenger":
        middle = (
            Piece("adversarial_lite_note")
            if chosen.tier is Tier.LITE
            else Piece("adversarial_case_advocate", (("case", advocate),))
        )
        task = Piece("adversarial_challenger_task", additions=True)
        return (Piece("adversarial_challenger_head", envelope), middle, task)
    cases = [Piece("adversarial_reconciler_head", head)]
    if chosen.tier is not Tier.LITE:
        cases.append(Piece("adversarial_case_advocate", (("case", advocate),)))
    challenger = answers.get("challenger", "") or "(the Challenger gave no answer)"
    cases.append(Piece("adversarial_case_challenger", (("case", challenger),)))
    if chosen.tier is Tier.FULL:
        cases.append(Piece("adversarial_case_probes", (("probes", probe_lines(debate)),)))
    task_values = (*fenced, ("tier", chosen.tier.value))
    return (*cases, Piece("adversarial_reconciler_task", task_values, additions=True))


def probe_lines(debate: Debate) -> str:
    """`Probe n (framing): [STABLE] ... — key tension` for the Reconciler."""
    lines = []
    for n, (task, framing) in enumerate(PROBES, start=1):
        found = sections(output_of(debate, task))
        stable = found.get("STABLE", "not run")
        lines.append(f"Probe {n} ({framing}): [STABLE] {stable} — {found.get('KEY-TENSION', '-')}")
    return "\n".join(lines)


def task_piece(debate: Debate, task: str, answers: dict[str, str]) -> Piece:
    """The intake audit, a consistency probe, or the Validator."""
    if task == "intake":
        intake = (
            *agenda(debate),
            ("evidence", debate.added_text(EVIDENCE).strip() or "-"),
            ("people", people_said(debate)),
        )
        return Piece("adversarial_intake", intake)
    audit, chosen = audit_of(debate)
    audit_text = structural_audit(audit, chosen)
    values: tuple[tuple[str, str], ...]
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
        return Piece("adversarial_probe", values)
    values = (
        ("audit", audit_text),
        ("reconciler", answers.get("reconciler", "") or "-"),
        ("advocate", sections(answers.get("advocate", "")).get("EVIDENCE", "-")),
        ("challenger", sections(answers.get("challenger", "")).get("EVIDENCE", "-")),
        ("probes", probe_lines(debate) if chosen.tier is Tier.FULL else "-"),
        ("constraints", constraints(debate, audit)),
    )
    return Piece("adversarial_validator", values)


def tokens(text: str) -> int:
    """A rough token count: four ASCII characters a token, one for any other character
    (Hangul, accented letters: counted high, so the cap holds)."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    return ascii_chars // 4 + len(text) - ascii_chars


def item_line(item: Evidence) -> str:
    """One inventory item in the seed's shape."""
    return f"{item.id} | {item.item} | {item.stance}"


def fitted(audit: Audit) -> tuple[tuple[Evidence, ...], str]:
    """The inventory items the manifest carries under the seed's token cap, in order, and
    the note that says what was left out and where the whole is (empty: nothing cut)."""
    rest = (audit.proposition, audit.decision_focus, *(audit.known_gaps or ()),
            *audit.optional_state)  # fmt: skip
    spent = _RESERVE + sum(tokens(part) for part in rest)
    kept: list[Evidence] = []
    for item in audit.evidence:
        spent += tokens(item_line(item)) + 1
        if spent > MANIFEST_TOKENS:
            break
        kept.append(item)
    left = audit.evidence[len(kept) :]
    if not left:
        return audit.evidence, ""
    note = CUT.format(cap=f"{MANIFEST_TOKENS:,}", left=len(left), total=len(audit.evidence),
                      first=left[0].id, last=left[-1].id)  # fmt: skip
    return tuple(kept), note


def debate_line(audit: Audit, chosen: Route) -> str:
    """The seed's `DEBATE:` log line."""
    return (
        f"DEBATE: tier={chosen.tier.value.lower()}, proposition={audit.proposition[:80]}, "
        f"evidence={len(audit.evidence)}, roles=[{ROLE_LISTS[chosen.tier.value]}]"
    )


def structural_audit(audit: Audit, chosen: Route) -> str:
    """The audit every role receives, verbatim, in the seed's English (people read it in their
    language: adversarial_audit_words.audit_notice), with the items the manifest carries."""
    gaps = "unknown" if audit.known_gaps is None else "; ".join(audit.known_gaps) or "none"
    kept, cut = fitted(audit)
    lines = [
        f"- Proposition: {audit.proposition}",
        f"- Decision focus: {audit.decision_focus or 'none'}",
        f"- Evidence inventory: {len(audit.evidence)}",
        *(f"  - {item_line(e)}" for e in kept),
        *([f"  - {cut}"] if cut else []),
        f"- Opposition explicitly present: {'yes' if opposition_present(audit) else 'no'}",
        f"- Known gaps: {gaps}",
        f"- Optional state: {'; '.join(audit.optional_state) or 'none'}",
        f"- Tier: {chosen.tier.value} ({', '.join(chosen.reasons)})",
        f"- Intake status: {chosen.intake.value}",
    ]
    if chosen.thin:
        lines.append(f"- CONTEXT-THIN: {'; '.join(chosen.thin)}")
    return "\n".join(lines)
