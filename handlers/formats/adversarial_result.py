"""The adversarial format's governance, in code where it is structural, and its output: the
`debate-result` page in the seed's output format and the closing summary."""

from __future__ import annotations

import re
from dataclasses import dataclass

from handlers.formats.adversarial_audit import Audit, Intake, Route, Tier, opposition_present
from handlers.formats.adversarial_contract import (
    CONFIDENCES,
    VERDICTS,
    cited_ids,
    first_word,
    points,
    rulings,
    sections,
)

NOT_RUN = "(no answer)"


@dataclass(frozen=True)
class Answers:
    """What each role answered (empty: it did not run or gave no answer)."""

    advocate: str = ""
    challenger: str = ""
    reconciler: str = ""
    probes: tuple[str, ...] = ()
    validator: str = ""
    cost: tuple[str, ...] = ()  # "Role: who (model)" for every role that ran


@dataclass(frozen=True)
class Result:
    """The debate's outcome after the governance rules."""

    verdict: str
    thesis: str
    confidence: str
    caps: tuple[str, ...]
    rejected: tuple[str, ...]
    skipped: tuple[str, ...]
    validation: str
    caveats: tuple[str, ...]


def stable_probes(probes: tuple[str, ...]) -> int:
    """How many probes found the Advocate's conclusion stable."""
    return sum(1 for p in probes if (sections(p).get("STABLE", "").strip().lower()[:3] == "yes"))


def uncited(role: str, text: str, ids: tuple[str, ...]) -> tuple[str, ...]:
    """The role's [EVIDENCE] points that cite no inventory id: rejected arguments."""
    known = set(ids)
    return tuple(
        f"{role} evidence {n}: {point} (cites no inventory item)"
        for n, point in enumerate(points(sections(text).get("EVIDENCE", "")), start=1)
        if not set(cited_ids(point)) & known
    )


def skipped_roles(tier: Tier, answers: Answers) -> tuple[str, ...]:
    """Every role that did not run, and why."""
    skipped = []
    if tier is Tier.LITE:
        skipped.append("Advocate: LITE tier, the proposition's framing is the affirmative case")
    elif not answers.advocate:
        skipped.append("Advocate: no answer (skipped after failures)")
    if not answers.challenger:
        skipped.append("Challenger: no answer (skipped after failures)")
    if tier is not Tier.FULL:
        skipped.append(f"Consistency probes: {tier.value} tier, stability check not needed")
        skipped.append(f"Validator: {tier.value} tier (FULL only)")
    if not answers.reconciler:
        skipped.append("Reconciler: no answer (skipped after failures)")
    return tuple(skipped)


def govern(audit: Audit, chosen: Route, answers: Answers) -> Result:
    """Apply the seed's decision rules to the Reconciler's answer."""
    rec = sections(answers.reconciler)
    stated = first_word(rec.get("CONFIDENCE", ""), CONFIDENCES) or "SPECULATIVE"
    caps = []
    if chosen.intake is Intake.THIN:
        caps.append("CONTEXT-THIN intake caps confidence at SPECULATIVE")
    if chosen.tier is Tier.FULL and stable_probes(answers.probes) == 0:
        caps.append("consistency probes diverge (0 of 2 stable): capped at SPECULATIVE")
    rejected_own = rec.get("REJECTED-ARGUMENTS", "").strip()
    rejected = tuple(
        line
        for line in (
            *(points(rejected_own) if rejected_own.lower() not in ("", "none") else ()),
            *uncited("Advocate", answers.advocate, audit.ids),
            *uncited("Challenger", answers.challenger, audit.ids),
        )
    )
    val = sections(answers.validator)
    result = first_word(val.get("RESULT", ""), ("PASS-WITH-CAVEATS", "PASS", "FAIL"))
    validation = "" if chosen.tier is not Tier.FULL else (result or "not available")
    caveats = [c for c in (rec.get("CAVEATS", ""),) if c and c.lower() != "none"]
    if chosen.tier is Tier.FULL:
        own = val.get("CAVEATS", "").strip()
        if own and own.lower() != "none":
            caveats.append(f"Validator: {own}")
        if result in (None, "FAIL"):
            caveats.append(f"Validator result: {result or 'not available'}")
    return Result(
        verdict=first_word(rec.get("VERDICT", ""), VERDICTS) or "NONE",
        thesis=rec.get("THESIS", "") or NOT_RUN,
        confidence="SPECULATIVE" if caps else stated,
        caps=tuple(caps),
        rejected=rejected,
        skipped=skipped_roles(chosen.tier, answers),
        validation=validation,
        caveats=tuple(caveats),
    )


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_result(audit: Audit, chosen: Route, answers: Answers) -> str:
    """The `debate-result` page, in the seed's output format; every role's answer follows in
    full."""
    res = govern(audit, chosen, answers)
    rec = sections(answers.reconciler)
    lines = [
        "## Debate Result",
        f"**Proposition:** {audit.proposition}",
        f"**Tier:** {chosen.tier.value.lower()} ({_agents(answers)} agents)",
        f"**Intake status:** {chosen.intake.value}",
        "",
        *_audit_lines(audit, chosen),
        "",
        f"### Reconciler's Verdict: {res.verdict}",
        res.thesis,
        "",
        *_decision_lines(res, rec),
        f"### Confidence: {res.confidence}",
        *(f"- {cap}" for cap in res.caps),
    ]
    if chosen.tier is Tier.FULL:
        lines += ["", "### Validation", res.validation]
    lines += ["", "### Caveats", *(f"- {c}" for c in res.caveats or ("none",))]
    lines += ["", "### Cost", f"Agents spawned: {_agents(answers)}"]
    lines += [f"- {c}" for c in answers.cost]
    return "\n".join(lines) + "\n\n" + _answers(answers)


def _audit_lines(audit: Audit, chosen: Route) -> list[str]:
    gaps = "unknown" if audit.known_gaps is None else "; ".join(audit.known_gaps) or "none"
    return [
        "### Structural Audit",
        f"- Evidence inventory: {len(audit.evidence)}",
        *(f"  - {e.id} | {e.item} | {e.stance}" for e in audit.evidence),
        f"- Opposition explicitly present: {'yes' if opposition_present(audit) else 'no'}",
        f"- Known gaps: {gaps}",
        f"- Optional state: {'; '.join(audit.optional_state) or 'none'}",
        f"- Tier rationale: {', '.join(chosen.reasons)}",
        *(f"- CONTEXT-THIN: {reason}" for reason in chosen.thin_reasons),
    ]


def _decision_lines(res: Result, rec: dict[str, str]) -> list[str]:
    table = [
        f"| {_cell(r.point)} | {_cell(r.winner)} | {_cell(r.reasoning)} |"
        for r in rulings(rec.get("POINT-BY-POINT", ""))
    ]
    survive = [p for p in (rec.get("SURVIVING-ELEMENTS"), rec.get("ADOPTED-FROM-CHALLENGER")) if p]
    own_skip = rec.get("SKIPPED-ROLE-RATIONALE", "")
    own_skip = "" if own_skip.lower() in ("", "none") else own_skip
    return [
        "### Point-by-Point Resolution",
        "| Point | Winner | Reasoning |",
        "|-------|--------|-----------|",
        *table,
        "",
        "### Rejected Arguments",
        *(f"- {line}" for line in res.rejected or ("none",)),
        "",
        "### What Survives",
        *(f"- {part}" for part in survive or ["none"]),
        "",
        "### Skipped Roles",
        *(f"- {line}" for line in res.skipped or (() if own_skip else ("none",))),
        *([f"- Reconciler: {own_skip}"] if own_skip else []),
        "",
    ]


def _agents(answers: Answers) -> int:
    """The roles that ran (the intake audit is the moderator's, not an agent's)."""
    return sum(1 for line in answers.cost if not line.startswith("Intake"))


def _fenced(text: str) -> str:
    """The text verbatim in a fence longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def _answers(answers: Answers) -> str:
    """Every role's answer in full (nothing a role wrote is lost)."""
    parts = ["## Role answers"]
    named = (
        ("Advocate", answers.advocate),
        *((f"Consistency probe {n}", p) for n, p in enumerate(answers.probes, start=1)),
        ("Challenger", answers.challenger),
        ("Reconciler", answers.reconciler),
        ("Validator", answers.validator),
    )
    for role, text in named:
        if text:
            parts += [f"### {role}", _fenced(text)]
    return "\n\n".join(parts) + "\n"


def render_summary(audit: Audit, chosen: Route, answers: Answers) -> str:
    """The closing block in the room."""
    res = govern(audit, chosen, answers)
    lines = [
        f"**{res.verdict}** — {res.thesis}",
        f"Tier: {chosen.tier.value} · Intake: {chosen.intake.value} · Confidence: {res.confidence}",
        *(f"- {cap}" for cap in res.caps),
    ]
    if res.validation:
        lines.append(f"Validation: {res.validation}")
    if res.rejected:
        lines.append(f"Rejected arguments: {len(res.rejected)}")
    lines += [f"- {c}" for c in res.caveats]
    return "\n".join(lines)
