"""The one quote matcher: a quote from a debater's prose is found however it was re-typed
(Unicode form, invisible characters, typographic quotes, spacing); JSON syntax is no quote;
a minority side's quote must be its own words."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from handlers.core.model import AG, CLAUDE, ParsedReply, Turn
from handlers.core.poll.minority import verbatim
from handlers.core.quotes import MIN_QUOTE_CHARS, found_in, normal
from handlers.core.reply.parser import parse_reply
from handlers.core.turns.concessions import quoted
from tests.tools.wiki.support import turn

PROSE = "운영 부담이 핵심이라서 in-process LRU로 시작하는 게 맞다고 봅니다. It's the team's call."


def parsed_turn(number: int, text: str, seat: str) -> Turn:
    """A stored reply parsed by the free format's contract."""
    stored = turn(number, text, seat)
    return Turn(**{**stored.__dict__, "parsed": parse_reply(text)})


def reply_with(opinion: str, stance: str = "disagree") -> str:
    return "```json\n" + json.dumps({"opinion": opinion, "stance": stance}) + "\n```"


def retyped(quote: str, how: int) -> str:
    """The quote as a person or a model might copy it."""
    if how == 0:
        return unicodedata.normalize("NFD", quote)
    if how == 1:
        return quote.replace(" ", " \u200b", 3)
    if how == 2:
        return "“" + quote.replace("'", "’") + "”"
    if how == 3:
        return "  " + quote.replace(" ", "\n  ", 2) + " "
    return f"'{unicodedata.normalize('NFKD', quote)}'"


@given(
    start=st.integers(0, len(PROSE) - MIN_QUOTE_CHARS),
    size=st.integers(MIN_QUOTE_CHARS, len(PROSE)),
    how=st.integers(0, 4),
)
def test_a_quote_taken_from_prose_is_found_however_it_was_retyped(
    start: int, size: int, how: int
) -> None:
    quote = PROSE[start : start + size].strip()
    if len(quote.strip(".,…:;\"' ")) < MIN_QUOTE_CHARS:  # too short once marks are trimmed
        return
    other = parsed_turn(1, reply_with(PROSE), CLAUDE)
    assert found_in(retyped(quote, how), (other,))
    assert quoted(retyped(quote, how), (other,))


@given(
    key=st.sampled_from(["opinion", "stance", "wiki_action", "question"]),
    value=st.sampled_from(["disagree", "partial", "agree"]),
)
def test_json_syntax_is_no_quote(key: str, value: str) -> None:
    other = parsed_turn(1, reply_with(PROSE, value), CLAUDE)
    assert not quoted(f'"{key}": "{value}"', (other,))
    assert not quoted(f'"stance": "{value}"}}\n```', (other,))


def test_the_defects_found_by_hand() -> None:
    text = reply_with("캐시는 프로세스 안에 두는 편이 운영이 훨씬 단순합니다. Redis isn't free.")
    other = parsed_turn(1, text, CLAUDE)
    assert not quoted('"stance": "disagree"', (other,))  # was accepted: the raw reply searched
    assert quoted(unicodedata.normalize("NFD", "캐시는 프로세스 안에 두는 편이"), (other,))
    assert quoted("운영이\u200b 훨씬 단순합니다", (other,))
    assert quoted("Redis isn’t free", (other,))


def test_a_minority_quote_that_rebuts_the_other_side_is_not_the_side_s_own() -> None:
    def said(number: int, seat: str, opinion: str) -> Turn:
        return Turn(**{**turn(number, "", seat).__dict__, "parsed": ParsedReply(opinion)})

    claude = said(1, CLAUDE, "Redis is the only way to scale out.")
    ag = said(2, AG, 'Claude says "Redis is the only way to scale out." That is wrong: LRU scales.')
    assert not verbatim("Redis is the only way to scale out.", (ag,), (claude,))
    assert verbatim("That is wrong: LRU scales.", (ag,), (claude,))


@given(
    start=st.integers(0, len(PROSE) - MIN_QUOTE_CHARS),
    size=st.integers(MIN_QUOTE_CHARS, len(PROSE)),
    at=st.integers(0, 200),
    invisible=st.sampled_from("\u200b\u200c\u200d\u2060\ufeff\u00ad"),
)
def test_ways_of_retyping_combine(start: int, size: int, at: int, invisible: str) -> None:
    """NFD Hangul with an invisible character anywhere in it, even between two jamo of one
    syllable, and a typographic apostrophe, all at once."""
    quote = PROSE[start : start + size].strip()
    if len(quote.strip(".,…:;\"' ")) < MIN_QUOTE_CHARS:
        return
    copied = unicodedata.normalize("NFD", quote.replace("'", "’"))
    at %= len(copied) + 1
    other = parsed_turn(1, reply_with(PROSE), CLAUDE)
    assert quoted(copied[:at] + invisible + copied[at:], (other,))


def test_a_flood_of_typographic_quotes_and_invisible_characters_is_folded_whole() -> None:
    # Each character is replaced by itself now (no lookup table): every one must still fold.
    typographic = "\u201c\u201d\u201e\u201f\u00ab\u00bb\u300c\u300d\u300e\u300f"
    apostrophes = "\u2018\u2019\u201a\u201b\u2032\u00b4`"
    invisible = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
    unit = f"a{typographic}b{apostrophes}\u1100{invisible}\u1161 \t\n c "
    text = unit * 20_000
    folded = "a" + '"' * len(typographic) + "b" + "'" * len(apostrophes) + "가 c"
    assert normal(text) == " ".join([folded] * 20_000)
