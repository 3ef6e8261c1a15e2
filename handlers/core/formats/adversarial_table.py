"""The adversarial result's reconciliation table (the seed's Phase 3): a row per ruling of the
Reconciler, with the ruling's structural basis, each side's point on it and the Validator's
grounding check; the roles' words embedded `verbatim`, shortened (the answers follow whole)."""

from __future__ import annotations

from handlers.core.formats.adversarial_audit_words import word
from handlers.core.formats.adversarial_contract import cited_ids, plain, points, rulings, sections
from handlers.core.formats.keys import verbatim as v


def _cell(text: str, limit: int = 160) -> str:
    """A role's words in a table cell, verbatim (shortened: the whole answer is below)."""
    flat = " ".join(text.split())
    flat = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return v(flat).replace("|", "\\|") or "-"


def _citing(text: str, ids: tuple[str, ...]) -> str:
    """The role's first [EVIDENCE] point that cites one of `ids`."""
    found = points(sections(text).get("EVIDENCE", ""))
    return next((p for p in found if set(cited_ids(p)) & set(ids)), "") if ids else ""


def _grounding(validator: str, point: str, index: int) -> str:
    """The Validator's grounding of a ruling: the line naming its point, else the line in place."""
    lines = [line for line in sections(validator).get("GROUNDING", "").splitlines() if line]
    named = [rest for line in lines for label, _, rest in (line.partition(":"),)
             if plain(label.lstrip("-* ")) == plain(point)]  # fmt: skip
    if named:
        return named[0]
    return lines[index].partition(":")[2] if index < len(lines) else ""


def reconciliation(
    rec: dict[str, str], advocate: str, challenger: str, validator: str
) -> list[str]:
    """The seed's six-column reconciliation table, a row per ruling of the Reconciler."""
    header = ("col_point", "col_basis", "role_advocate", "role_challenger", "role_reconciler",
              "role_validator")  # fmt: skip
    rows = [f"| {' | '.join(word(c) for c in header)} |", "|---" * 6 + "|"]
    for n, r in enumerate(rulings(rec.get("POINT-BY-POINT", ""))):
        basis = cited_ids(f"{r.point} {r.reasoning}")
        cells = (
            r.point,
            ", ".join(basis),
            _citing(advocate, basis),
            _citing(challenger, basis),
            f"{r.winner} — {r.reasoning}",
            _grounding(validator, r.point, n),
        )
        rows.append(f"| {' | '.join(_cell(c) for c in cells)} |")
    return rows
