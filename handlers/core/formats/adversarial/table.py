"""The seed's reconciliation table (its Phase 3): a row per ruling of the Reconciler, and under
each side the points that are about that row's issue. A point goes to the one row it is most
about (the inventory ids it shares with the ruling, then the words), or to none when no row is
(or two rows are equally) about it: a cell never repeats another row's point. A Challenger's
concession shows as conceded, in the reader's words."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from handlers.core.formats.adversarial.contract import (
    EvidencePoints,
    Grounding,
    Ruling,
    cited_ids,
    plain,
    points,
    rulings,
    sections,
)
from handlers.core.formats.adversarial.words import word
from handlers.core.formats.keys import verbatim as v
from handlers.core.shorten import gist

_WORD = re.compile(r"\w+")
_ID = re.compile(r"e\d{1,3}")
_ID_IN_TEXT = re.compile(r"E\d{1,3}")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_STEM = 4  # a word of a spaced language is told by its first letters ("polling", "poll")
_ID_WEIGHT = 2.0  # a shared inventory id says more than a shared word
_CELL_LIMIT = 160  # a point in a cell is shortened: the whole answer is on the page below
# What of a point or ruling the matching reads: its opening says what it is about (a real one
# is a line or two), and a hostile megabyte-long "point" costs no more than this.
_READ_CHARS = 2000
COLUMNS = (
    "col_point",
    "col_basis",
    "role_advocate",
    "role_challenger",
    "role_reconciler",
    "role_validator",
)


def stems(text: str) -> frozenset[str]:
    """The words of `text` as the table compares them: inventory ids as they are; a Korean
    word by its first one to three syllables (a particle follows the stem); another word of
    four letters or more by its first four."""
    text = text[:_READ_CHARS]
    found = {cited.casefold() for cited in cited_ids(text)}
    for token in _WORD.findall(_ID_IN_TEXT.sub(" ", text).casefold()):
        if _HANGUL.match(token):
            found.update(token[:n] for n in range(1, min(3, len(token)) + 1))
        elif len(token) >= _STEM and not token.isdigit():
            found.add(token[:_STEM])
    return frozenset(found)


class _Rows:
    """The rulings' words, and how rare each is among them (a word of every row tells none)."""

    def __init__(self, rows: tuple[Ruling, ...]) -> None:
        self.words = tuple(stems(f"{r.point} {r.reasoning}") for r in rows)
        counts: dict[str, int] = {}
        for own in self.words:
            for stem in own:
                counts[stem] = counts.get(stem, 0) + 1
        size = len(rows) + 1
        self._weight = {stem: math.log(size / n) for stem, n in counts.items()}

    def home(self, text: str) -> int | None:
        """The one row `text` is most about; None if none is, or two are as much."""
        said = stems(text)
        scores = []
        for own in self.words:
            shared = said & own
            ids = sum(self._weight[s] for s in shared if _ID.fullmatch(s))
            rest = sum(self._weight[s] for s in shared if not _ID.fullmatch(s))
            scores.append(_ID_WEIGHT * ids + rest)
        best = max(scores, default=0.0)
        if best <= 0 or scores.count(best) > 1:
            return None
        return scores.index(best)


def _placed(rows: _Rows, texts: Iterable[str]) -> dict[int, list[str]]:
    """Each text under the row it belongs to, in the order given."""
    placed: dict[int, list[str]] = {}
    if not rows.words:
        return placed
    for text in texts:
        at = rows.home(text)
        if at is not None:
            placed.setdefault(at, []).append(text)
    return placed


def _shown(text: str) -> str:
    """A role's words in a table cell, verbatim (shortened)."""
    return v(gist(text, _CELL_LIMIT)).replace("|", "\\|")


def _conceded(challenger: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The Challenger's concessions (its points) and the ids its [STRUCTURAL] line concedes."""
    said = sections(challenger)
    own = said.get("CONCESSIONS", "")
    given = () if plain(own) in ("", "none") else points(own)
    structural = said.get("STRUCTURAL", "")
    conceded = next((part for part in structural.split(";") if "conceded" in part), "")
    return given, cited_ids(conceded)


def reconciliation(
    reconciler: dict[str, str],
    validator: dict[str, str],
    sides: dict[str, EvidencePoints],
    challenger: str,
) -> list[str]:
    """The seed's six-column table: each ruling's structural basis, each side's points about
    it, the ruling, and the Validator's grounding check of it."""
    header = f"| {' | '.join(word(c) for c in COLUMNS)} |"
    lines = [header, "|---" * len(COLUMNS) + "|"]
    found = rulings(reconciler.get("POINT-BY-POINT", ""))
    rows = _Rows(found)
    by_side = {role: _placed(rows, side.points) for role, side in sides.items()}
    given, conceded_ids = _conceded(challenger)
    granted = _placed(rows, given)
    grounding = Grounding(validator.get("GROUNDING", ""))
    conceded = word("conceded")
    for n, ruling in enumerate(found):
        basis = cited_ids(f"{ruling.point} {ruling.reasoning}")
        cells = [_shown(ruling.point) or "-", ", ".join(basis)]
        for role in ("advocate", "challenger"):
            own = [_shown(p) for p in by_side.get(role, {}).get(n, [])]
            if role == "challenger":
                own += [f"{conceded}: {_shown(p)}" for p in granted.get(n, [])]
                if not own and set(basis) & set(conceded_ids):
                    own.append(f"{conceded} ({', '.join(i for i in basis if i in conceded_ids)})")
            cells.append(" · ".join(own) or "-")
        cells.append(_shown(f"{ruling.winner} — {ruling.reasoning}"))
        cells.append(_shown(grounding.of(ruling.point, n)) or "-")
        lines.append(f"| {' | '.join(cells)} |")
    return lines
