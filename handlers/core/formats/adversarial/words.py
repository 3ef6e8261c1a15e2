"""The intake audit as people read it (keyed and `verbatim`, keys.py): the room's notice after
the audit and the audit lines of the `debate-result` page. The protocol's tokens (tiers, intake
statuses, stances, evidence ids, CONTEXT-THIN) stay as they are; the roles read the seed's
English block instead (briefs.structural_audit)."""

from __future__ import annotations

from handlers.core.formats.adversarial.audit import COUNTED, Audit, Route, opposition_present
from handlers.core.formats.keys import verbatim as v


def word(name: str) -> str:
    """A word of the result page, the summary or the audit notice, as its locale key."""
    return f"⟦adversarial.result.{name}⟧"


NONE = word("none")


def reason_words(name: str, audit: Audit) -> str:
    """One of the routing's reasons as its locale key; a COUNTED one names the size of the
    audit's inventory (`evidence=3`)."""
    key = f"⟦adversarial.reason.{name}⟧"
    return f"⟦adversarial.reason.evidence⟧={len(audit.evidence)} {key}" if name in COUNTED else key


def reasons_words(reasons: tuple[str, ...], separator: str, audit: Audit) -> str:
    """The reasons as locale keys, joined."""
    return separator.join(reason_words(name, audit) for name in reasons)


def inventory_lines(audit: Audit) -> list[str]:
    """The evidence inventory with its ids, the opposition, the gaps and the optional state."""
    gaps = "; ".join(v(gap) for gap in audit.known_gaps or ()) or NONE
    gaps = word("unknown") if audit.known_gaps is None else gaps
    present = word("yes" if opposition_present(audit) else "no")
    return [
        f"- {word('evidence_inventory')}: {len(audit.evidence)}",
        *(f"  - {e.id} | {v(e.item)} | {e.stance}" for e in audit.evidence),
        f"- {word('opposition')}: {present}",
        f"- {word('known_gaps')}: {gaps}",
        f"- {word('optional_state')}: {v('; '.join(audit.optional_state)) or NONE}",
    ]


def audit_notice(audit: Audit, chosen: Route) -> str:
    """The audit the room shows once it is in: the lines the roles read, in the reader's words."""
    lines = [
        f"- {word('proposition')}: {v(audit.proposition)}",
        f"- {word('decision_focus')}: {v(audit.decision_focus) or NONE}",
        *inventory_lines(audit),
        f"- {word('tier')}: {chosen.tier.value} ({reasons_words(chosen.reasons, ', ', audit)})",
        f"- {word('intake_status')}: {chosen.intake.value}",
    ]
    if chosen.thin:
        lines.append(f"- CONTEXT-THIN: {reasons_words(chosen.thin, '; ', audit)}")
    return "\n".join(lines)
