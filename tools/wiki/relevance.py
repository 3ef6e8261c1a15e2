"""Which past Conclusions are precedents of a proposal: the proposal's content words (the
stop-words of ko, en and pt-BR aside, a Korean particle trimmed) that a page holds, each
weighted by its rarity among the pages. A page passes only when it shares two content words
(or the proposal's only one) that are not on most pages: one shared filler word is not enough."""

from __future__ import annotations

import functools
import math
import re
import tomllib
from collections.abc import Mapping
from importlib import resources

MIN_TERM_CHARS = 2  # Korean nouns are often two syllables (캐시, 로그)
MAX_TERMS = 12
MIN_SHARED = 2  # content words a precedent shares with the proposal
COMMON_SHARE = 0.5  # a word on more than this share of the pages says nothing in this wiki
COMMON_MIN_PAGES = 4  # ... once the wiki holds this many pages (too few to tell before)
# Korean particles glued to a noun (캐시를, 계층은, Redis로), longest first.
PARTICLES: tuple[str, ...] = ("으로", "에서", "에게", "까지", "부터", "보다", "처럼", "이나")
PARTICLES += ("하고", "을", "를", "이", "가", "은", "는", "의", "에", "로", "와", "과", "도", "만")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@functools.cache
def stopwords() -> frozenset[str]:
    """The stop-words of every language the bot speaks (a proposal may mix them)."""
    text = resources.files("tools.wiki").joinpath("stopwords.toml").read_text(encoding="utf-8")
    return frozenset(word for words in tomllib.loads(text).values() for word in words)


def terms(text: str) -> list[str]:
    """The content words of the topic and question, longest first."""
    kept = set()
    for word in (w.casefold() for w in _WORD.findall(text)):
        stem = _stem(word)
        if len(stem) >= MIN_TERM_CHARS and not {word, stem} & stopwords():
            kept.add(stem)
    return sorted(kept, key=lambda w: (-len(w), w))[:MAX_TERMS]


def _stem(word: str) -> str:
    """The word without a Korean particle, when a noun of two syllables or more is left."""
    for particle in PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= MIN_TERM_CHARS:
            return word[: -len(particle)]
    return word


def relevant(
    shared: Mapping[str, tuple[str, ...]], wanted: list[str], pages: int
) -> list[tuple[str, tuple[str, ...]]]:
    """The pages that pass, best first, each with the words it matched on: `shared` maps a
    page to the wanted words it holds; `pages` is how many pages were looked at."""
    held = {w: sum(w in words for words in shared.values()) for w in wanted}
    common = {w for w, n in held.items() if pages >= COMMON_MIN_PAGES and n > COMMON_SHARE * pages}
    need = min(MIN_SHARED, len(wanted))

    def weight(word: str) -> float:
        return math.log(1 + pages / max(1, held[word]))

    scored = []
    for page, words in shared.items():
        telling = tuple(w for w in wanted if w in words and w not in common)
        if len(telling) >= need:
            scored.append((sum(map(weight, telling)), page, telling))
    scored.sort(key=lambda found: (-found[0], found[1]))
    return [(page, telling) for _, page, telling in scored]
