"""The Round-Log section of a turn: readable, and nothing of the reply missing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from handlers.i18n import Strings
from handlers.model import AG, Turn, TurnMeta
from handlers.reply_parser import parse_reply
from tools.wiki.pages import render_round_section

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def turn_of(text: str) -> Turn:
    return Turn(1, 3, 2, AG, text, text, "0" * 64, parse_reply(text), TurnMeta(model="m"), T0)


def test_a_structured_reply_shows_every_field_readably() -> None:
    content = "# 설계\n\n```py\nprint('``` inside')\n```\n"
    block = {
        "opinion": "## 입장\n\nLRU로 시작합니다.",
        "stance": "partial",
        "question": {"to": "user", "text": "운영 인력이 있나요?"},
        "wiki_action": {"page": "Working-Document", "mode": "append", "content": content},
    }
    text = "앞의 말.\n\n```json\n" + json.dumps(block, ensure_ascii=False) + "\n```"
    section = render_round_section(turn_of(text), "https://x/1", "1:round-log:3", Strings("ko"))
    assert "앞의 말.\n\n## 입장\n\nLRU로 시작합니다." in section  # prose and opinion, unescaped
    assert "운영 인력이 있나요?" in section and "부분 동의" in section
    assert content.rstrip() in section
    assert "````markdown" in section  # a fence the content's own ``` cannot close
    assert section.count("<details>") == section.count("</details>") == 1


def test_an_unstructured_reply_is_logged_word_for_word() -> None:
    text = "JSON 없이 쓴 답변\n\n- 하나\n- 둘"
    section = render_round_section(turn_of(text), "", "1:round-log:3", Strings("en"))
    assert section.rstrip().endswith(text) and "<details>" not in section


def test_fields_the_contract_does_not_use_are_shown_under_their_heading() -> None:
    block = {"opinion": "본론", "opinion ": "x", "sources": ["RFC 9111", {"저자": "김"}]}
    text = json.dumps({**block, "stance": "?"}, ensure_ascii=False)
    section = render_round_section(turn_of(text), "", "1:round-log:3", Strings("ko"))
    heading = Strings("ko")("wiki.round_log.other_fields")
    extra = section.split(f"**{heading}**", 1)[1]
    for word in ("opinion : x", "RFC 9111", "저자: 김", "stance: ?"):
        assert word in extra
