"""PartialFields: a structured reply's text fields read as the partial JSON arrives."""

from __future__ import annotations

import itertools
import json

from hypothesis import given
from hypothesis import strategies as st

from tools.claude.partial import PartialFields


def pieces(text: str, cuts: list[int]) -> list[str]:
    """`text` cut at the given positions (each taken modulo its length)."""
    at = sorted({c % (len(text) + 1) for c in cuts})
    bounds = [0, *at, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def fed(text: str, cuts: list[int], wanted: tuple[str, ...] = ("opinion",)) -> PartialFields:
    fields = PartialFields(wanted)
    for piece in pieces(text, cuts):
        fields.feed(piece)
    return fields


def test_an_escape_a_unicode_escape_and_a_surrogate_pair_cut_anywhere_decode_whole() -> None:
    value = 'say "hi"\\ then\n\ttab, é, 한국어, 😀 and 𝄞'
    text = json.dumps({"opinion": value, "stance": "agree"})  # ASCII: \u00e9, \ud83d\ude00
    assert "\\ud83d\\ude00" in text
    for cut in range(len(text) + 1):  # every place one cut can fall
        assert fed(text, [cut]).values == {"opinion": value}
    assert fed(text, list(range(len(text)))).values == {"opinion": value}  # a char a piece


def test_the_value_grows_as_it_arrives_and_a_half_pair_is_not_shown() -> None:
    fields = PartialFields(("opinion",))
    assert not fields.feed('{"stance": "agree", "opin')
    assert fields.values == {}
    assert not fields.feed('ion": "')
    assert fields.feed("Redis \\u00e9")
    assert fields.values == {"opinion": "Redis é"}
    assert fields.feed(" \\ud83d")  # a space shown; the high half waits for its low half
    assert fields.values == {"opinion": "Redis é "}
    assert fields.feed("\\ude00!")
    assert fields.text() == "Redis é 😀!"


def test_only_top_level_wanted_fields_are_read() -> None:
    text = json.dumps(
        {
            "question": {"to": "user", "text": "opinion?", "opinion": "nested, not mine"},
            "list": ["opinion", {"opinion": "deeper"}],
            "opinion": "mine",
            "wiki_action": {"content": "x"},
        }
    )
    assert fed(text, [7, 31, 50]).values == {"opinion": "mine"}


def test_several_fields_are_shown_in_the_order_they_came() -> None:
    text = json.dumps({"vote": "yes", "argument": "A.", "risks": ["r"], "conditions": "C."})
    fields = fed(text, [3, 20], wanted=("argument", "conditions"))
    assert fields.text() == "A.\n\nC."


def test_a_lone_surrogate_shows_as_a_replacement_character() -> None:
    fields = fed('{"opinion": "a\\ud83d b\\ude00 c"}', [])
    assert fields.text() == "a\ufffd b\ufffd c"


@given(
    st.text(),
    st.dictionaries(st.text(max_size=5), st.text(max_size=20), max_size=3),
    st.lists(st.integers(min_value=0), max_size=12),
    st.booleans(),
)
def test_any_value_cut_anywhere_reads_as_json_reads_it(
    value: str, others: dict[str, str], cuts: list[int], ascii_only: bool
) -> None:
    obj = {**others, "opinion": value}
    text = json.dumps(obj, ensure_ascii=ascii_only)
    got = fed(text, cuts).values["opinion"]
    # A lone surrogate cannot travel on; every other character arrives as JSON reads it.
    expected = "".join("\ufffd" if 0xD800 <= ord(c) < 0xE000 else c for c in value)
    assert got == expected
