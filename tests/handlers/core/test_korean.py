"""Korean particles follow the word before them: no `이(가)` left for people to read."""

from __future__ import annotations

import re

import pytest

from handlers.core.i18n import LocaleError, Strings, load_table
from handlers.core.korean import resolve_particles

KO = Strings("ko")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Claude이(가) 답을 쓰는 중", "Claude가 답을 쓰는 중"),  # 클로드: no final consonant
        ("AG이(가) 아직", "AG가 아직"),  # 에이지
        ("URL을(를) 여세요", "URL을 여세요"),  # 유알엘: ㄹ
        ("토론 1을(를) 이어서", "토론 1을 이어서"),  # 일
        ("토론 2을(를) 이어서", "토론 2를 이어서"),  # 이
        ("사회자이(가) 정리", "사회자가 정리"),
        ("결론은(는) 이렇다", "결론은 이렇다"),
        ("Redis과(와) LRU", "Redis와 LRU"),  # 레디스
        ("**앨리스**이(가) 열었습니다", "**앨리스**가 열었습니다"),
        ("서울(으)로", "서울로"),
        ("집(으)로", "집으로"),
    ],
)
def test_the_particle_fits_the_word(text: str, expected: str) -> None:
    assert resolve_particles(text) == expected


def test_locale_strings_come_out_with_one_particle() -> None:
    assert KO("console.working", seat="Claude") == "Claude가 답을 쓰는 중…"
    assert KO("console.working", seat="사회자") == "사회자가 답을 쓰는 중…"
    assert KO("console.resumed", id=1) == "↻ 저장된 토론 1을 이어서 진행합니다."
    assert KO("console.resumed", id=2) == "↻ 저장된 토론 2를 이어서 진행합니다."
    both = re.compile(r"이\(가\)|을\(를\)|은\(는\)|과\(와\)")
    samples = {"seat": "Claude", "id": 3, "user": "앨리스", "kind": "timeout", "minutes": 5}
    for key in sorted(load_table("ko")):
        try:
            shown = KO(key, **samples)
        except LocaleError:  # a string needing other parameters
            continue
        assert not both.search(shown), (key, shown)


def test_the_console_operator_is_not_called_me_with_an_honorific() -> None:
    assert KO("console.card_opened", user=KO("console.default_name")) == "✅ 운영자님이 열었습니다"


def test_words_passed_into_a_line_are_shown_as_written() -> None:
    # A moderator's note (or any text a line carries) may itself write both forms: it is
    # quoted, not corrected.
    note = "Claude이(가) 말한 캐시을(를) 다시 보자"
    assert note in KO("moderator.note", note=note)
    assert KO("console.working", seat="Claude") == "Claude가 답을 쓰는 중…"
