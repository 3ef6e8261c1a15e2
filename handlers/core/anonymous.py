"""Anonymous peers (issue 34): a debater reads the others as neutral letters, with no seat,
vendor or model name, since agents defer to a peer they can name (identity bias)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping

from handlers.core.model import Backend, Debate, Turn

ANONYMOUS = "anonymous"  # the debate's option (ANONYMOUS_PEERS its default): "on" or "off"

# The names that tell who makes a backend's model, by backend.
VENDOR_NAMES: dict[Backend, tuple[str, ...]] = {
    Backend.CLAUDE_CLI: ("Claude", "Claude Code", "Anthropic", "Opus", "Sonnet", "Haiku"),
    Backend.AG_RELAY: ("AG", "Antigravity", "Gemini", "Google", "DeepMind"),
    Backend.GEMINI_CLI: ("Gemini", "Gemini CLI", "Google", "DeepMind"),
}
# Latin letters and digits bound a name; Hangul does not (Korean particles attach: `Claude는`).
_EDGE = r"0-9A-Za-z_\u00c0-\u024f"
_DOUBLED = re.compile(r"\b([A-Z]) [(\[]\1[)\]]")  # `A (A)`: a name beside its hidden persona


def is_on(debate: Debate) -> bool:
    """True if the debate hides its debaters from each other."""
    return debate.option(ANONYMOUS) == "on"


def letters(debate: Debate) -> dict[str, str]:
    """Each seat's letter: A, B, C… in an order drawn once per debate (not the roster's, which
    would tell the usual first seat)."""
    seats = list(debate.ids)
    random.Random(debate.id).shuffle(seats)  # noqa: S311  # an order, not a secret
    return {seat: chr(ord("A") + n) for n, seat in enumerate(seats)}


def peer_names(
    debate: Debate, seat: str, turns: Iterable[Turn] = (), roles: Iterable[str] = ()
) -> dict[str, str]:
    """Every name `seat` could read a debater by, to that debater's letter: vendors (shared by
    several seats: their letters), models, ids and names; `seat`'s own persona stays, and the
    seats in `roles` keep their role's name (the Reconciler is a role, not a maker)."""
    letter, kept = letters(debate), set(roles)
    found: dict[str, set[str]] = {}
    for member in debate.roster:
        for vendor in VENDOR_NAMES.get(member.backend, ()):
            found.setdefault(vendor.lower(), set()).add(letter[member.id])
    names = {name: "/".join(sorted(shared)) for name, shared in found.items()}
    models = {t.meta.model.lower(): letter[t.seat] for t in turns if t.seat in letter}
    for member in debate.roster:
        own = (member.model,) + (() if member.id in kept else (member.id, member.name))
        persona = (member.persona,) if member.id != seat else ()
        names |= {name.lower(): letter[member.id] for name in (*own, *persona) if name.strip()}
    return names | {model: who for model, who in models.items() if model}


def anonymize(text: str, names: Mapping[str, str]) -> str:
    """`text` with every name of `names` (any case, as a whole word) replaced by its letter,
    in one pass: the longest name first, a letter never read again."""
    if not names:
        return text
    spelled = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"(?<![{_EDGE}])(?:{spelled})(?![{_EDGE}])", re.IGNORECASE)
    hidden = pattern.sub(lambda m: names.get(m.group().lower(), m.group()), text)
    return _DOUBLED.sub(r"\1", hidden)
