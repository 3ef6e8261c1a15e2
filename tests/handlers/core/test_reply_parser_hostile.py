"""Hostile replies: the parser never raises, stays linear, and shows every character."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from handlers.core.model import ParsedReply, Stance
from handlers.core.reply.fields import Obj, Value
from handlers.core.reply.parser import parse_reply, shown


def _everything_shown(parsed: ParsedReply) -> str:
    parts = [parsed.opinion, parsed.extra]
    if parsed.question is not None:
        parts.append(parsed.question.text)
    if parsed.wiki_action is not None:
        action = parsed.wiki_action
        parts += [action.page, action.mode, action.content]
    return "\n".join(parts)


# What the contract consumes as structure (its field names, a stance, a question's
# addressee) is shown as the turn's labels rather than as text.
_VOCABULARY = {
    "opinion",
    "stance",
    "question",
    "wiki_action",
    "page",
    "mode",
    "content",
    "to",
    "text",
    "user",
    "opponent",
    *(stance.value for stance in Stance),
}


def strings_of(value: Value) -> list[str]:
    """Every key and string in `value` (what showing it must keep), iteratively."""
    found: list[str] = []
    stack: list[Value] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Obj):
            for key, inner in item:
                found.append(key)
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            found.append(item)
    return found


def _assert_strings_shown(block_text: str, parsed: ParsedReply) -> None:
    block: Value = json.loads(block_text, object_pairs_hook=Obj)
    whole = _everything_shown(parsed)
    for piece in strings_of(block):
        if piece.lower() not in _VOCABULARY:
            assert shown(piece.strip()) in whole, piece


def test_nesting_deeper_than_the_recursion_limit_neither_raises_nor_loses_text() -> None:
    deep = '{"opinion": ' * 5000 + '"x"' + "}" * 5000
    for text in (f"before\n```json\n{deep}\n```\nafter", deep, "[" * 100_000):
        parsed = parse_reply(text)
        assert "before" in parsed.opinion or text is not deep or parsed.opinion
        assert len(_everything_shown(parsed)) >= len(text.strip()) // 2 or not parsed.structured
        if not parsed.structured:
            assert parsed.opinion == text


def test_a_block_with_deep_unused_fields_is_shown_without_recursion() -> None:
    nested: object = "bottom"
    for _ in range(600):
        nested = [nested]
    text = json.dumps({"opinion": "top", "stance": "agree", "deep": nested})
    parsed = parse_reply(text)
    assert parsed.structured and parsed.stance is Stance.AGREE
    assert parsed.opinion == "top" and "bottom" in parsed.extra


def test_a_flood_of_object_starts_is_parsed_and_the_last_block_still_found() -> None:
    flood = '{"opinion": {"' * 40_000
    text = flood + '\n```json\n{"opinion": "real", "stance": "agree"}\n```'
    parsed = parse_reply(text)
    assert parsed.structured and parsed.stance is Stance.AGREE
    assert parsed.opinion.startswith(flood.strip()) and parsed.opinion.endswith("real")
    assert parse_reply(flood).opinion == flood


def test_a_lone_surrogate_escape_is_shown_as_written_and_the_turn_can_be_stored() -> None:
    text = '```json\n{"opinion": "U+D800 is \\ud800, NUL is \\u0000", "stance": "agree"}\n```'
    parsed = parse_reply(text)
    assert parsed.opinion == "U+D800 is \\ud800, NUL is \\u0000"
    stored = TypeAdapter(ParsedReply).dump_json(parsed)
    assert TypeAdapter(ParsedReply).validate_json(stored) == parsed


def test_an_opinion_that_is_a_list_or_an_object_is_shown() -> None:
    for opinion in (["first point", "second point"], {"claim": "cache", "why": "latency"}):
        text = json.dumps({"opinion": opinion, "stance": "agree"})
        parsed = parse_reply(text)
        assert parsed.structured
        _assert_strings_shown(text, parsed)


def test_duplicate_keys_keep_every_value() -> None:
    text = '{"opinion": "first", "opinion": "second", "stance": "agree", "stance": "nope"}'
    parsed = parse_reply(text)
    assert parsed.opinion == "second" and parsed.stance is None
    assert "first" in parsed.extra and "agree" in parsed.extra and "nope" in parsed.extra


def test_unknown_keys_a_list_question_and_non_string_content_are_shown() -> None:
    block = {
        "opinion": "main",
        "confidence": 0.8,
        "sources": ["RFC 9111", {"title": "Redis docs", "year": 2024}],
        "question": ["why Redis?", "who operates it?"],
        "wiki_action": {"page": "Working-Document", "content": ["## A", "## B"], "note": "n"},
        "number": 123456789012345678901234567890e400,
    }
    text = json.dumps(block).replace("Infinity", "1e999")
    parsed = parse_reply(text)
    assert parsed.opinion == "main" and parsed.question is None and parsed.wiki_action is None
    _assert_strings_shown(text.replace("1e999", "0"), parsed)
    assert "1e999" in parsed.extra and "0.8" in parsed.extra and "2024" in parsed.extra


def test_extra_fields_of_a_valid_action_and_question_are_shown() -> None:
    block = {
        "opinion": "o",
        "question": {"to": "user", "text": "q?", "why": "budget"},
        "wiki_action": {"page": "Working-Document", "mode": "append", "content": "c", "x": "y"},
    }
    parsed = parse_reply(json.dumps(block))
    assert parsed.question is not None and parsed.question.text == "q?"
    assert parsed.wiki_action is not None and parsed.wiki_action.content == "c"
    assert "question.why: budget" in parsed.extra and "wiki_action.x: y" in parsed.extra


_TOKENS = st.sampled_from(
    [
        '{"',
        "{",
        "}",
        "[",
        "]",
        '"',
        ":",
        ",",
        " ",
        "\n",
        "```",
        "```json\n",
        "\\",
        "\\u",
        "d800",
        '"opinion"',
        '"stance"',
        '"question"',
        '"wiki_action"',
        "agree",
        "1",
        "null",
        "가",
        "\x00",
        "\ud800",
        "😀",
    ]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_TOKENS, max_size=40).map("".join) | st.text(max_size=60))
def test_any_text_parses_and_unstructured_text_is_kept(text: str) -> None:
    parsed = parse_reply(text)
    if not parsed.structured:
        assert parsed.opinion == shown(text)
    TypeAdapter(ParsedReply).dump_json(parsed)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.lists(st.tuples(st.text(max_size=8), inner), max_size=4)
    ),
    max_leaves=12,
)
_contract = st.lists(
    st.tuples(
        st.sampled_from(["opinion", "stance", "question", "wiki_action", "other"])
        | st.text(max_size=8),
        _json,
    ),
    min_size=1,
    max_size=6,
)


def _dump(value: object) -> str:
    """JSON text with every pair kept: tuples-of-pairs are objects (duplicates allowed)."""
    if isinstance(value, list) and value and all(isinstance(v, tuple) for v in value):
        body = ", ".join(f"{json.dumps(k)}: {_dump(v)}" for k, v in value)
        return "{" + body + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_dump(v) for v in value) + "]"
    return json.dumps(value)


@settings(max_examples=1000, deadline=None)
@given(pairs=_contract, before=st.text(max_size=30), fenced=st.booleans())
def test_every_string_of_any_block_is_shown(
    pairs: list[tuple[str, object]], before: str, fenced: bool
) -> None:
    pairs = [("opinion", "anchor"), *pairs]
    block = _dump(pairs)
    text = f"{before}\n```json\n{block}\n```" if fenced else f"{before}\n{block}"
    parsed = parse_reply(text)
    assert parsed.structured
    _assert_strings_shown(block, parsed)
    if not fenced and before.lstrip().startswith("```"):
        return  # `before` is then the block's own fence line: markup, not words
    assert shown(before.strip()) in parsed.opinion


def _unsafe(char: str) -> bool:
    return char == "\x00" or 0xD800 <= ord(char) <= 0xDFFF


def _escaped(text: str) -> str:
    """`shown`'s rule, one character at a time: NUL and each lone surrogate as `\\uxxxx`."""
    return "".join(f"\\u{ord(c):04x}" if _unsafe(c) else c for c in text)


def test_a_reply_of_lone_surrogates_and_nul_is_shown_whole_each_one_escaped() -> None:
    # Every surrogate (both ends of both halves, a pair written apart) and NUL, in bulk:
    # each is escaped by itself, lower case, and nothing else changes.
    unit = "\ud800a\udbff\x00가\udc00\U0001f600\udfff\\\ud83d\ude00"
    text = unit * 20_000
    assert parse_reply(text).opinion == _escaped(text)
    block = '```json\n{"opinion": "' + unit.replace("\\", "\\\\") * 5_000 + '"}\n```'
    parsed = parse_reply(block)
    assert parsed.structured and parsed.opinion == _escaped(unit * 5_000)
    assert shown("\x00" * 100_000) == "\\u0000" * 100_000
