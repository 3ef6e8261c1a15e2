"""The debater-reply parser: tolerant, and it never drops text."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.core.model import Stance
from handlers.core.reply.parser import parse_reply, shown

BLOCK = {
    "opinion": "LRU 먼저",
    "stance": "agree",
    "wiki_action": {"page": "Working-Document", "mode": "append", "content": "## 결정"},
    "question": {"to": "user", "text": "운영 인력이 있나요?"},
}


def test_bare_json() -> None:
    parsed = parse_reply(json.dumps(BLOCK, ensure_ascii=False))
    assert parsed.structured and parsed.opinion == "LRU 먼저"
    assert parsed.stance is Stance.AGREE
    assert parsed.wiki_action is not None and parsed.wiki_action.content == "## 결정"
    assert parsed.question is not None and parsed.question.to == "user"


def test_fenced_json_after_prose_keeps_the_prose() -> None:
    text = "먼저 정리하면...\n\n```json\n" + json.dumps(BLOCK, ensure_ascii=False) + "\n```\n끝."
    parsed = parse_reply(text)
    assert parsed.structured
    assert parsed.opinion == "먼저 정리하면...\n\nLRU 먼저\n\n끝."


def test_bare_json_after_prose() -> None:
    text = "Some thoughts first.\n" + json.dumps({"opinion": "Use Redis", "stance": "disagree"})
    parsed = parse_reply(text)
    assert parsed.opinion == "Some thoughts first.\n\nUse Redis"
    assert parsed.stance is Stance.DISAGREE


def test_the_last_block_wins_and_earlier_json_stays_in_the_opinion() -> None:
    early = json.dumps({"opinion": "draft"})
    late = json.dumps({"opinion": "final", "stance": "partial"})
    parsed = parse_reply(f"{early}\nthen\n{late}")
    assert parsed.opinion.endswith("final") and early in parsed.opinion


def test_broken_json_becomes_the_opinion_with_a_flag() -> None:
    text = 'Here it is ```json\n{"opinion": "unterminated\n```'
    parsed = parse_reply(text)
    assert not parsed.structured and parsed.opinion == text


def test_unknown_stance_and_odd_fields_are_tolerated() -> None:
    parsed = parse_reply(
        json.dumps(
            {"opinion": "x", "stance": "maybe", "question": "why?", "wiki_action": "not an object"}
        )
    )
    assert parsed.stance is None and parsed.wiki_action is None
    assert parsed.question is not None and parsed.question.text == "why?"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_parses_without_error_and_unstructured_text_is_kept_exactly(text: str) -> None:
    parsed = parse_reply(text)
    if not parsed.structured:
        assert parsed.opinion == shown(text)


_prose = st.text(alphabet=st.characters(blacklist_characters="{}`"), max_size=200)


@settings(max_examples=200, deadline=None)
@given(before=_prose, after=_prose, opinion=st.text(max_size=200), fenced=st.booleans())
def test_prose_around_a_block_is_never_lost(
    before: str, after: str, opinion: str, fenced: bool
) -> None:
    block = json.dumps({"opinion": opinion, "stance": "agree"}, ensure_ascii=False)
    body = f"```json\n{block}\n```" if fenced else block
    parsed = parse_reply(f"{before}\n{body}\n{after}")
    assert parsed.structured and parsed.stance is Stance.AGREE
    for piece in (before.strip(), opinion.strip(), after.strip()):
        assert shown(piece) in parsed.opinion


def test_a_code_fence_inside_the_json_does_not_end_the_block() -> None:
    block = {"opinion": "예시:\n```py\nprint(1)\n```\n끝", "stance": "agree"}
    text = "앞.\n\n```json\n" + json.dumps(block, ensure_ascii=False) + "\n```\n뒤."
    parsed = parse_reply(text)
    assert parsed.structured and parsed.stance is Stance.AGREE
    assert parsed.opinion == "앞.\n\n예시:\n```py\nprint(1)\n```\n끝\n\n뒤."
