"""The card's roster line: for a ledger debate, each participant's assigned standpoint and the
end-state (the card shows what the debaters will be asked to argue)."""

from __future__ import annotations

from collections.abc import Callable

from handlers.core.formats.ledger import converging, standpoints
from handlers.core.model import Debate

Translate = Callable[..., str]


def roster_line(debate: Debate, t: Translate, names: dict[str, str]) -> str:
    """`AG · Claude (security reviewer)`, or `AG (for) · Claude (against) — ledger of agreed
    facts`."""
    if debate.format != "ledger":  # each with its role, where it has one
        return " · ".join(f"{names[m.id]} ({m.persona})" if m.persona else names[m.id]
                          for m in debate.roster)  # fmt: skip
    stands = dict(standpoints(debate))
    line = " · ".join(
        f"{names[m.id]} ({t(f'ledger.standpoint_{stands[m.id]}')})" for m in debate.roster
    )
    end = t("ledger.end_converge" if converging(debate) else "ledger.end_open")
    return f"{line} — {end}"
