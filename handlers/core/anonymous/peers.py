"""Anonymous peers: a debater reads the others as neutral letters, with no seat,
vendor or model name, since agents defer to a peer they can name (identity bias)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping

from handlers.core.anonymous.spelling import replace_spellings
from handlers.core.model import Backend, Debate, Turn

ANONYMOUS = "anonymous"  # the debate's option (ANONYMOUS_PEERS its default): "on" or "off"

# The names that tell who makes a backend's model, by backend.
VENDOR_NAMES: dict[Backend, tuple[str, ...]] = {
    Backend.CLAUDE_CLI: ("Claude", "Claude Code", "Anthropic", "Opus", "Sonnet", "Haiku"),
    Backend.AG_RELAY: ("AG", "Antigravity", "Gemini", "Google", "DeepMind"),
    Backend.GEMINI_CLI: ("Gemini", "Gemini CLI", "Google", "DeepMind"),
}
# How people write those names in Hangul and katakana, beside each (a space in a spelling
# also finds it written joined: `딥 마인드` finds `딥마인드`).
SPELLINGS: dict[str, tuple[str, ...]] = {
    "claude": ("클로드", "クロード"),
    "claude code": ("클로드 코드", "クロード コード"),
    "anthropic": ("앤트로픽", "앤스로픽", "엔트로픽", "アンソロピック", "アンスロピック"),
    "opus": ("오퍼스", "오푸스", "オーパス"),
    "sonnet": ("소넷", "소네트", "ソネット"),
    "haiku": ("하이쿠", "ハイク"),
    "antigravity": ("안티 그래비티", "アンチ グラビティ"),
    "gemini": ("제미나이", "제미니", "ジェミニ", "ジェミナイ"),
    "gemini cli": ("제미나이 CLI", "제미니 CLI", "ジェミニ CLI"),
    "google": ("구글", "グーグル"),
    "deepmind": ("딥 마인드", "ディープ マインド"),
}
# Words of a model's name that follow its maker's (`Gemini 2.5 Pro`, `gemini-2.5-flash`):
# hidden with the name they follow, never on their own (`pro` is also just a word).
MODEL_WORDS = ("pro", "flash", "lite", "ultra", "nano", "preview", "exp", "latest")
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
    several seats: their letters), models, ids and names, each also as SPELLINGS writes it in
    other scripts; `seat`'s own persona stays, and the seats in `roles` keep their role's name
    (the Reconciler is a role, not a maker)."""
    letter, kept = letters(debate), set(roles)
    found: dict[str, set[str]] = {}
    for member in debate.setup.roster:
        for vendor in VENDOR_NAMES.get(member.backend, ()):
            found.setdefault(vendor.lower(), set()).add(letter[member.id])
    names = {name: "/".join(sorted(shared)) for name, shared in found.items()}
    models = {t.meta.model.lower(): letter[t.seat] for t in turns if t.seat in letter}
    for member in debate.setup.roster:
        own = (member.model,) + (() if member.id in kept else (member.id, member.name))
        persona = (member.persona,) if member.id != seat else ()
        names |= {name.lower(): letter[member.id] for name in (*own, *persona) if name.strip()}
    names |= {model: who for model, who in models.items() if model}
    return {spelled: who for name, who in names.items() for spelled in _spelled(name)}


def _spelled(name: str) -> tuple[str, ...]:
    """`name` and how it is written in other scripts."""
    return (name, *SPELLINGS.get(name, ()))


def anonymize(text: str, names: Mapping[str, str]) -> str:
    """`text` with every spelling of every name of `names` (any case, width or separator,
    lookalike letters, a version glued on: see spelling.py) replaced by its letter, in one
    pass: the longest name first, a letter never read again."""
    return _DOUBLED.sub(r"\1", replace_spellings(text, names, MODEL_WORDS))
