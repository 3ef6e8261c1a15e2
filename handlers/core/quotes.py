"""One way to tell whether a quote is someone's words: every quote check (a concession's
`convinced_by`, the minority report's quotes) normalises both sides the same way and looks in
the prose the debater wrote, never in its JSON syntax."""

from __future__ import annotations

import unicodedata

from handlers.core.model import Turn

MIN_QUOTE_CHARS = 12  # shorter is no quote: a word or two matches anything
# Invisible characters that change no word: zero-width space, joiners, word joiner, BOM, soft
# hyphen. A copied quote often gains or loses them.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
# Typographic quotes and apostrophes, each folded to its ASCII form.
_TYPOGRAPHIC = (
    ('"', "\u201c\u201d\u201e\u201f\u00ab\u00bb\u300c\u300d\u300e\u300f"),
    ("'", "\u2018\u2019\u201a\u201b\u2032\u00b4`"),
)
_MARKS = "\"' "  # quote marks around a quote, not part of it (after folding)
_PUNCTUATION = ".,…:;"  # where a quote starts or stops mid-sentence: not needed to match


def normal(text: str) -> str:
    """`text` in the one form quotes are compared in: NFC, invisible characters removed,
    typographic quotes and apostrophes folded to ASCII, white space collapsed."""
    # One replace per character, not str.translate: translate looks every character up in a
    # table (about 100 ms per MB of Korean), a replace finds its one character in C.
    for char in _INVISIBLE:  # before NFC: one between two jamo of NFD Hangul keeps them apart
        text = text.replace(char, "")
    text = unicodedata.normalize("NFC", text)
    for folded, chars in _TYPOGRAPHIC:
        for char in chars:
            text = text.replace(char, folded)
    return " ".join(text.split())  # what `\s+` -> " " and strip() give, without a step per run


def quote_form(quote: str) -> str:
    """A quote as it is kept and shown: normal, and without the quote marks around it."""
    return normal(quote).strip(_MARKS)


def prose(turn: Turn) -> str:
    """What a debater wrote as words: its opinion and the text of its question and wiki
    action, as parsed (a JSON block's keys, quotes and escapes are not words)."""
    parsed = turn.parsed
    parts = [parsed.opinion]
    if parsed.question is not None:
        parts.append(parsed.question.text)
    if parsed.wiki_action is not None:
        parts.append(parsed.wiki_action.content)
    return normal("\n".join(parts))


def found_in(quote: str, turns: tuple[Turn, ...], *, fold_case: bool = False) -> bool:
    """The quote (at least MIN_QUOTE_CHARS once normal) stands word for word in the prose of
    one of `turns`; `fold_case` lets case differ."""
    wanted = quote_form(quote).strip(_PUNCTUATION + _MARKS)
    if len(wanted) < MIN_QUOTE_CHARS:
        return False
    if fold_case:
        wanted = wanted.casefold()
        return any(wanted in prose(t).casefold() for t in turns)
    return any(wanted in prose(t) for t in turns)
