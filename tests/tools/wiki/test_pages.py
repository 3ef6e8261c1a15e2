"""The Round-Log section of a turn: readable, and nothing of the reply missing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.core.formats.keys import fill_keys, verbatim
from handlers.core.i18n import Strings
from handlers.core.model import AG, Turn, TurnMeta, WikiPage
from handlers.core.reply.parser import parse_reply
from tools.wiki.pages import page_title, render_round_section, visible

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
    assert "앞의 말.\n\n### 입장\n\nLRU로 시작합니다." in section  # a level below the turn's ##
    assert "(덧붙이기)" in section and "(append)" not in section  # the mode in the locale
    assert "운영 인력이 있나요?" in section and "부분 동의" in section
    assert content.rstrip() in section
    assert "````markdown" in section  # a fence the content's own ``` cannot close
    assert section.count("<details>") == section.count("</details>") == 1


def test_an_unstructured_reply_is_logged_word_for_word() -> None:
    text = "JSON 없이 쓴 답변\n\n- 하나\n- 둘"
    section = render_round_section(turn_of(text), "", "1:round-log:3", Strings("en"))
    assert section.rstrip().endswith(text) and "<details>" not in section


def test_reply_headings_sit_below_the_turn_heading_and_code_is_untouched() -> None:
    text = "# 제목\n\n## 근거\n\n```md\n# not a heading\n```\n\n###### 깊은 곳"
    section = render_round_section(turn_of(text), "", "1:round-log:3", Strings("ko"))
    assert "\n## 라운드 2 · 턴 3" in section
    assert "\n### 제목\n" in section and "\n#### 근거\n" in section
    assert "\n# not a heading\n" in section and "\n###### 깊은 곳" in section


def test_a_local_entry_has_no_link_line_and_escape_codes_are_kept_visible() -> None:
    text = "\x1b[1;31m빨간\x1b[0m 글씨와 \x1b]8;;http://x\x07링크\x1b]8;;\x07"
    for language in ("ko", "en"):
        section = render_round_section(turn_of(text), "", "1:round-log:3", Strings(language))
        written = visible(section)  # as the outbox queues it: every character, none raw
        assert "\x1b" not in written and "\x07" not in written
        assert "\\u001b[1;31m빨간\\u001b[0m 글씨와 \\u001b]8;;http://x\\u0007링크" in written
        assert "Discord" not in section  # no "no link" line on a console or demo entry
    linked = render_round_section(turn_of(text), "https://x/1", "k", Strings("ko"))
    assert "[Discord 메시지](https://x/1)" in linked


def test_fields_the_contract_does_not_use_are_shown_under_their_heading() -> None:
    block = {"opinion": "본론", "opinion ": "x", "sources": ["RFC 9111", {"저자": "김"}]}
    text = json.dumps({**block, "stance": "?"}, ensure_ascii=False)
    section = render_round_section(turn_of(text), "", "1:round-log:3", Strings("ko"))
    heading = Strings("ko")("wiki.round_log.other_fields")
    extra = section.split(f"**{heading}**", 1)[1]
    for word in ("opinion : x", "RFC 9111", "저자: 김", "stance: ?"):
        assert word in extra


def test_a_debaters_own_brackets_in_a_format_page_survive_the_filling() -> None:
    """A page quotes debaters verbatim; their `⟦...⟧` that names no string is kept as is
    (it used to raise and stop the page's write)."""
    said = "> 표기법 ⟦not.a_key⟧ 과 ⟦x.y⟧ 그대로"
    filled = fill_keys(f"## ⟦boardroom.tracker⟧\n\n{said}", Strings("en"))
    assert filled == f"## {Strings('en')('boardroom.tracker')}\n\n{said}"


EN = Strings("en")
PANEL = "⟦boardroom.panel⟧"  # a real key: a template's word, or a debater's own when quoted


@pytest.mark.parametrize(
    "said",
    [
        PANEL,  # a real key, written by a debater
        f"⟦{PANEL}",  # a bracket right before a real key
        f"{PANEL}⟧",
        "⟦⟦",
        "⟦⟦⟦boardroom.panel⟧⟧",
        "trailing ⟦",
        "⟦not.a_key⟧ ⟦x.y⟧",
        "",
    ],
)
def test_text_embedded_verbatim_is_filled_back_exactly_as_written(said: str) -> None:
    filled = fill_keys(f"## {PANEL}\n\n{verbatim(said)}{PANEL}", EN)
    assert filled == f"## {EN('boardroom.panel')}\n\n{said}{EN('boardroom.panel')}"


_BRACKETED = st.lists(
    st.sampled_from(["⟦", "⟧", ".", "_", "a", "z", "boardroom", "panel", PANEL, "⟦⟦", " ", "가"])
).map("".join)


@given(st.one_of(_BRACKETED, st.text(alphabet="⟦⟧._az가 \n")))
def test_a_key_then_any_verbatim_text_then_a_key_fill_to_the_words_and_the_text(said: str) -> None:
    word = EN("boardroom.panel")
    assert fill_keys(PANEL + verbatim(said) + PANEL, EN) == word + said + word


def _uncarried(c: str) -> bool:
    """A control character but tab and line breaks, DEL, or a lone surrogate."""
    code = ord(c)
    return (code < 0x20 and c not in "\t\n\r") or code == 0x7F or 0xD800 <= code <= 0xDFFF


@given(
    st.text(
        alphabet=st.characters(max_codepoint=0x80) | st.sampled_from("캐시\u200b\ud800\udcff😀\\")
    )
)
def test_control_characters_are_written_as_escapes_and_nothing_is_lost(text: str) -> None:
    shown = visible(text)
    shown.encode("utf-8")  # a file and a wiki page can carry it: no lone surrogate is left
    expected = "".join(
        f"\\u{ord(c):04x}" if _uncarried(c) else c for c in text
    )  # every other character as it was, in place; tabs and line breaks too
    assert shown == expected
    assert shown.count("\n") == text.count("\n") and shown.count("\t") == text.count("\t")


ENGLISH_PAGE_WORDS = ("Agenda", "Working-Document", "Round-Log", "Conclusion")


@pytest.mark.parametrize("page", list(WikiPage))
def test_a_shared_page_title_is_wholly_in_korean(page: WikiPage) -> None:
    title = page_title("캐시 계층 선택", page, Strings("ko"))
    name = title.removeprefix("캐시 계층 선택 — ")
    assert name and all("가" <= ch <= "힣" or ch == " " for ch in name), title


@pytest.mark.parametrize("page", list(WikiPage))
def test_a_shared_page_title_in_portuguese_has_no_english_word(page: WikiPage) -> None:
    name = page_title("Cache", page, Strings("pt-BR")).removeprefix("Cache — ")
    # "Agenda" is Portuguese too; the others are English page ids
    assert name == "Agenda" or name not in ENGLISH_PAGE_WORDS, name
    assert "-" not in name
