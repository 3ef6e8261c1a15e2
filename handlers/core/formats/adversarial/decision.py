"""The adversarial outcome as a decision record: the proposition the Advocate defends and the
alternative the Challenger must propose are the options, each with its side's evidence; the
Reconciler's verdict chooses (ADOPT and MODIFY accept, REJECT rejects) and its thesis says
why; what survives and what was adopted from the Challenger are the good consequences, the
caveats and rejected arguments the bad ones; the confidence (and the Validator's result, in
FULL) is how far it is confirmed."""

from __future__ import annotations

from handlers.core.formats.adversarial.audit import Audit, Route, Tier
from handlers.core.formats.adversarial.contract import points, sections
from handlers.core.formats.adversarial.result import ROLE_NAMES, Answers, govern
from handlers.core.formats.adversarial.words import word
from handlers.core.formats.decision import ConsideredOption, DecisionRecord, Status
from handlers.core.formats.keys import verbatim as v

_STATUS = {"ADOPT": Status.ACCEPTED, "MODIFY": Status.ACCEPTED, "REJECT": Status.REJECTED}
_NONE = frozenset({"", "none", "n/a", "-", "—"})


def adversarial_decision(audit: Audit, chosen: Route, answers: Answers) -> DecisionRecord:
    """The record of a written result (result.py's rules applied to the same answers)."""
    res = govern(audit, chosen, answers)
    rec = sections(answers.reconciler)
    advocate, challenger = sections(answers.advocate), sections(answers.challenger)
    status = _STATUS.get(res.verdict, Status.PROPOSED)
    verdict = f"{word('verdict')}: {res.verdict}"
    return DecisionRecord(
        status,
        drivers=tuple(
            f"{label}: {v(text)}"
            for label, text in (
                (word("decision_focus"), audit.decision_focus),
                ("⟦adr.constraints⟧", audit.constraints),
            )
            if text.strip()
        )
        + tuple(v(gap) for gap in audit.known_gaps or ()),
        options=(
            ConsideredOption(
                f"{ROLE_NAMES['advocate']}: {v(audit.proposition)}",
                _said(advocate.get("THESIS", "")),
                _points(advocate.get("EVIDENCE", "")),
                _points(advocate.get("RISKS", "")),
            ),
            ConsideredOption(
                f"{ROLE_NAMES['challenger']}: {_said(challenger.get('ALTERNATIVE', ''))}",
                _said(challenger.get("THESIS", "")),
                _points(challenger.get("EVIDENCE", "")),
                _points(challenger.get("CONCESSIONS", "")),
            ),
        ),
        chosen=res.thesis if status is not Status.PROPOSED else "",
        because=f"{verdict} · {word('confidence')}: {res.confidence}",
        good=_points(rec.get("SURVIVING-ELEMENTS", ""))
        + _points(rec.get("ADOPTED-FROM-CHALLENGER", "")),
        bad=tuple(res.caveats) + tuple(res.rejected),
        confirmation=(
            f"{word('confidence')}: {res.confidence}",
            *res.caps,
            *((f"{word('validation')}: {res.validation}",) if chosen.tier is Tier.FULL else ()),
        ),
        more=tuple(res.skipped),
    )


def _said(text: str) -> str:
    """A section's words verbatim, or the result page's `none`."""
    return v(text.strip()) if text.strip().lower() not in _NONE else word("no_answer")


def _points(section: str) -> tuple[str, ...]:
    return tuple(v(point) for point in points(section) if point.strip().lower() not in _NONE)
