"""The adversarial format's governance, in code where it is structural, and its output (keyed
and `verbatim`, keys.py): the `debate-result` page in the seed's output format and the closing
summary. The protocol's tokens (verdicts, tiers, confidences, PASS / FAIL, ids) stay as they are."""

from __future__ import annotations

from dataclasses import dataclass

from handlers.core.formats.adversarial.audit import Audit, Intake, Route, Tier
from handlers.core.formats.adversarial.briefs import debate_line
from handlers.core.formats.adversarial.contract import (
    CONFIDENCES,
    VERDICTS,
    EvidencePoints,
    first_word,
    once_each,
    plain,
    points,
    sections,
)
from handlers.core.formats.adversarial.table import reconciliation
from handlers.core.formats.adversarial.words import (
    NONE,
    inventory_lines,
    reason_words,
    reasons_words,
    word,
)
from handlers.core.formats.keys import fenced
from handlers.core.formats.keys import verbatim as v

NOT_RUN = word("no_answer")
ROLE_NAMES = {
    role: word(f"role_{role}") for role in ("advocate", "challenger", "reconciler", "validator")
}
INTAKE_COST = word("cost_intake")  # the cost line of the moderator's intake audit


@dataclass(frozen=True)
class Answers:
    """What each role answered (empty: it did not run or gave no answer)."""

    advocate: str = ""
    challenger: str = ""
    reconciler: str = ""
    probes: tuple[str, ...] = ()
    validator: str = ""
    cost: tuple[str, ...] = ()  # "Role: who (model)" for every role that ran, as locale keys
    tiers: tuple[str, ...] = ()  # "tier: role (who, model), ...", the seed's "Model tiers used"
    tier_names: tuple[str, ...] = ()  # the tiers the roles ran on, for the Tier line


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
    validator_caveats: tuple[str, ...]  # the Validator's own [CAVEATS] (FULL only)
    caveats: tuple[str, ...]  # the Reconciler's, then the Validator's


@dataclass(frozen=True)
class _Read:
    """Every answer read once (its sections, each side's points) for the rules and the page."""

    rec: dict[str, str]
    val: dict[str, str]
    stable: int  # the probes that found the Advocate's conclusion stable
    sides: dict[str, EvidencePoints]
    challenger: str  # its concessions show in the table

    @staticmethod
    def of(answers: Answers) -> _Read:
        """The answers, read."""
        stable = sum(1 for p in answers.probes if _stable(sections(p).get("STABLE", "")))
        sides = {
            role: EvidencePoints(getattr(answers, role)) for role in ("advocate", "challenger")
        }
        rec, val = sections(answers.reconciler), sections(answers.validator)
        return _Read(rec, val, stable, sides, answers.challenger)


def _stable(said: str) -> bool:
    return said.strip().lower()[:3] == "yes"


def uncited(role: str, side: EvidencePoints, ids: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The role's [EVIDENCE] points citing no inventory id (rejected), each as (point, line)."""
    known = set(ids)
    head, tail = f"{ROLE_NAMES[role]} {word('evidence')}", f"({word('uncited')})"
    return tuple(
        (point, f"{head} {n}: {v(point)} {tail}")
        for n, (point, cited) in enumerate(zip(side.points, side.cited, strict=True), start=1)
        if known.isdisjoint(cited)
    )


def rejected_arguments(audit: Audit, read: _Read) -> tuple[str, ...]:
    """The Reconciler's rejected arguments, then the uncited points it did not already name:
    each argument once (a point both roles made, or one the Reconciler quotes, is one)."""
    own = read.rec.get("REJECTED-ARGUMENTS", "")
    stated = () if plain(own) in ("", "none") else points(own)
    found = [(line, v(line)) for line in stated]
    for role, side in read.sides.items():
        found += uncited(role, side, audit.ids)
    return once_each([(plain(point), line) for point, line in found])


def skipped_roles(tier: Tier, answers: Answers) -> tuple[str, ...]:
    """Every role that did not run, and why."""
    failed = word("skip_failed")
    skipped = []
    if tier is Tier.LITE:
        skipped.append(f"{ROLE_NAMES['advocate']}: {word('skip_lite')}")
    elif not answers.advocate:
        skipped.append(f"{ROLE_NAMES['advocate']}: {failed}")
    if not answers.challenger:
        skipped.append(f"{ROLE_NAMES['challenger']}: {failed}")
    if tier is not Tier.FULL:
        skipped.append(f"{word('role_probes')}: {tier.value} {word('skip_probes')}")
        skipped.append(f"{ROLE_NAMES['validator']}: {tier.value} {word('skip_validator')}")
    if not answers.reconciler:
        skipped.append(f"{ROLE_NAMES['reconciler']}: {failed}")
    return tuple(skipped)


def govern(audit: Audit, chosen: Route, answers: Answers) -> Result:
    """The seed's decision rules applied to the Reconciler's answer (keyed and `verbatim` as
    the module says)."""
    return _governed(audit, chosen, answers, _Read.of(answers))


def _governed(audit: Audit, chosen: Route, answers: Answers, read: _Read) -> Result:
    rec, val = read.rec, read.val
    stated = first_word(rec.get("CONFIDENCE", ""), CONFIDENCES) or "SPECULATIVE"
    caps = []
    if chosen.intake is Intake.THIN:
        caps.append(word("cap_thin"))
    if chosen.tier is Tier.FULL and read.stable == 0:
        caps.append(word("cap_probes"))
    rejected = rejected_arguments(audit, read)
    result = first_word(val.get("RESULT", ""), ("PASS-WITH-CAVEATS", "PASS", "FAIL"))
    validation = "" if chosen.tier is not Tier.FULL else (result or word("not_available"))
    caveats = [v(c) for c in (rec.get("CAVEATS", ""),) if c and c.lower() != "none"]
    checked: tuple[str, ...] = ()
    if chosen.tier is Tier.FULL:
        own = val.get("CAVEATS", "").strip()
        if own and plain(own) != "none":
            checked = (v(own),)
            caveats.append(f"{ROLE_NAMES['validator']}: {v(own)}")
        if result in (None, "FAIL"):
            caveats.append(f"{word('validator_result')}: {result or word('not_available')}")
    return Result(
        verdict=first_word(rec.get("VERDICT", ""), VERDICTS) or "NONE",
        thesis=v(rec.get("THESIS", "")) or NOT_RUN,
        confidence="SPECULATIVE" if caps else stated,
        caps=tuple(caps),
        rejected=rejected,
        skipped=skipped_roles(chosen.tier, answers),
        validation=validation,
        validator_caveats=checked,
        caveats=tuple(caveats),
    )


def render_result(audit: Audit, chosen: Route, answers: Answers) -> str:
    """The `debate-result` page in the seed's output format, every role's answer in full below."""
    read = _Read.of(answers)
    res = _governed(audit, chosen, answers, read)
    lines = [
        f"## {word('title')}",
        f"**{word('proposition')}:** {v(audit.proposition)}",
        f"**{word('tier')}:** {chosen.tier.value.lower()} ({_tier_detail(answers)})",
        f"**{word('intake_status')}:** {chosen.intake.value}",
        "",
        *_audit_lines(audit, chosen),
        "",
        f"### {word('verdict')}: {res.verdict}",
        res.thesis,
        "",
        *_decision_lines(res, read),
        f"### {word('confidence')}: {res.confidence}",
        *(f"- {cap}" for cap in res.caps),
    ]
    if chosen.tier is Tier.FULL:
        lines += ["", f"### {word('validation')}", res.validation]
        lines += [f"- {caveat}" for caveat in res.validator_caveats]
    lines += ["", f"### {word('caveats')}", *(f"- {c}" for c in res.caveats or (NONE,))]
    lines += ["", f"### {word('cost')}", f"{word('agents_spawned')}: {_agents(answers)}"]
    lines += [f"{word('tiers_used')}:", *(f"- {t}" for t in answers.tiers)] if answers.tiers else []
    # Each role's model is on its tier's line; the moderator's intake audit has no tier.
    lines += [f"- {c}" for c in answers.cost if c.startswith(INTAKE_COST) or not answers.tiers]
    return "\n".join(lines) + "\n\n" + _answers(answers)


def _audit_lines(audit: Audit, chosen: Route) -> list[str]:
    return [
        f"### {word('audit')}",
        *inventory_lines(audit),
        f"- {word('tier_rationale')}: {reasons_words(chosen.reasons, ', ', audit)}",
        f"- {v(debate_line(audit, chosen))}",
        *(f"- CONTEXT-THIN: {reason_words(reason, audit)}" for reason in chosen.thin),
    ]


def _decision_lines(res: Result, read: _Read) -> list[str]:
    rec = read.rec
    kept = (rec.get("SURVIVING-ELEMENTS"), rec.get("ADOPTED-FROM-CHALLENGER"))
    survive = [v(part) for part in kept if part]
    own_skip = rec.get("SKIPPED-ROLE-RATIONALE", "")
    own_skip = "" if own_skip.lower() in ("", "none") else v(own_skip)
    return [
        f"### {word('points')}",
        *reconciliation(read.rec, read.val, read.sides, read.challenger),
        "",
        f"### {word('rejected')}",
        *(f"- {line}" for line in res.rejected or (NONE,)),
        "",
        f"### {word('survives')}",
        *(f"- {part}" for part in survive or [NONE]),
        "",
        f"### {word('skipped')}",
        *(f"- {line}" for line in res.skipped or (() if own_skip else (NONE,))),
        *([f"- {ROLE_NAMES['reconciler']}: {own_skip}"] if own_skip else []),
        "",
    ]


def _tier_detail(answers: Answers) -> str:
    """The seed's "(N agents, model tiers)", as `Agents spawned: 6; Model tiers used: ...`
    (a count before its word would read wrong for one agent in some languages)."""
    spawned = f"{word('agents_spawned')}: {_agents(answers)}"
    if not answers.tier_names:
        return spawned
    return f"{spawned}; {word('tiers_used')}: {', '.join(answers.tier_names)}"


def _agents(answers: Answers) -> int:
    """The roles that ran (the intake audit is the moderator's, not an agent's)."""
    return sum(1 for line in answers.cost if not line.startswith(INTAKE_COST))


def _answers(answers: Answers) -> str:
    """Every role's answer in full (nothing a role wrote is lost)."""
    parts = [f"## {word('answers')}"]
    probe = word("probe")
    named = (
        (ROLE_NAMES["advocate"], answers.advocate),
        *((f"{probe} {n}", p) for n, p in enumerate(answers.probes, start=1)),
        (ROLE_NAMES["challenger"], answers.challenger),
        (ROLE_NAMES["reconciler"], answers.reconciler),
        (ROLE_NAMES["validator"], answers.validator),
    )
    for role, text in named:
        if text:
            parts += [f"### {role}", fenced(v(text))]
    return "\n\n".join(parts) + "\n"


def render_summary(audit: Audit, chosen: Route, answers: Answers) -> str:
    """The closing block in the room."""
    res = govern(audit, chosen, answers)
    lines = [
        f"⚖️ {word('verdict')}: **{res.verdict}** — {res.thesis}",
        f"{word('tier')}: {chosen.tier.value} · {word('intake')}: {chosen.intake.value} · "
        f"{word('confidence')}: {res.confidence}",
        *(f"- {cap}" for cap in res.caps),
    ]
    if res.validation:
        lines.append(f"{word('validation')}: {res.validation}")
    if res.rejected:
        lines.append(f"{word('rejected_count')}: {len(res.rejected)}")
    if res.caveats:  # a heading of their own: they are not rejected arguments
        lines += [f"{word('caveats')}:", *(f"- {c}" for c in res.caveats)]
    return "\n".join(lines)
