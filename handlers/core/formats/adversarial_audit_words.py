"""The intake audit as people read it (keyed and `verbatim`, keys.py): the room's notice after
the audit and the audit lines of the `debate-result` page. The protocol's tokens (tiers, intake
statuses, stances, evidence ids, CONTEXT-THIN) stay as they are; the roles read the seed's
English block instead (adversarial_briefs.structural_audit)."""

from __future__ import annotations

import re

from handlers.core.formats.adversarial_audit import (
    COUNTED,
    REASONS,
    Audit,
    Route,
    opposition_present,
)
from handlers.core.formats.keys import verbatim as v


def word(name: str) -> str:
    """A word of the result page, the summary or the audit notice, as its locale key."""
    return f"⟦adversarial.result.{name}⟧"


NONE = word("none")
_NAMED = {text: name for name, text in REASONS.items()}
_COUNTED = tuple(
    (name, re.compile(re.escape(head) + r"(\d+)" + re.escape(tail)))
    for name, (head, _, tail) in ((n, t.partition("{count}")) for n, t in COUNTED.items())
)


def reason_words(reason: str) -> str:
    """One of the routing's reasons in the reader's language (`evidence=3` keeps its count);
    a reason it does not know (stored by an older version), verbatim."""
    name = _NAMED.get(reason)
    if name is not None:
        return f"⟦adversarial.reason.{name}⟧"
    for name, pattern in _COUNTED:
        found = pattern.fullmatch(reason)
        if found is not None:
            return f"⟦adversarial.reason.evidence⟧={found.group(1)} ⟦adversarial.reason.{name}⟧"
    return v(reason)


def reasons_words(reasons: tuple[str, ...], separator: str) -> str:
    """The reasons in the reader's language, joined."""
    return separator.join(reason_words(reason) for reason in reasons)


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
        f"- {word('tier')}: {chosen.tier.value} ({reasons_words(chosen.reasons, ', ')})",
        f"- {word('intake_status')}: {chosen.intake.value}",
    ]
    if chosen.thin:
        lines.append(f"- CONTEXT-THIN: {reasons_words(chosen.thin, '; ')}")
    return "\n".join(lines)
