"""Korean particles that depend on the word before them (받침): 이/가, 을/를, 은/는, 과/와, (으)로.

The Korean locale writes a particle after a parameter in its both-forms spelling, e.g.
`{seat}이(가)`; `resolve_particles` picks the one form that fits the formatted word, so people
read `Claude가` and `토론 1을`, never `Claude이(가)`.
"""

from __future__ import annotations

import re

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
JONG_COUNT = 28
RIEUL = 8  # ㄹ as a final consonant: "로", not "으로"
# How a final digit is read: 영 일 이 삼 사 오 육 칠 팔 구 (its final consonant, 0 for none).
DIGIT_FINAL = {
    "0": 21,
    "1": RIEUL,
    "2": 0,
    "3": 16,
    "4": 0,
    "5": 0,
    "6": 1,
    "7": RIEUL,
    "8": RIEUL,
    "9": 0,
}
# A Latin acronym's last letter read by its name: L 엘, M 엠, N 엔, R 알 end in a consonant.
LETTER_FINAL = {"L": RIEUL, "M": 16, "N": 4, "R": RIEUL}
# A Latin word's ending as it is usually written in Hangul (Claude 클로드, Redis 레디스: none).
WORD_FINAL = (("ng", 21), ("l", RIEUL), ("m", 16), ("n", 4), ("k", 1), ("p", 17), ("b", 17))

# (with a final consonant, without): the form written first is the one after a consonant.
PARTICLES = {
    "이(가)": ("이", "가"),
    "가(이)": ("이", "가"),
    "을(를)": ("을", "를"),
    "를(을)": ("을", "를"),
    "은(는)": ("은", "는"),
    "는(은)": ("은", "는"),
    "과(와)": ("과", "와"),
    "와(과)": ("과", "와"),
    "(으)로": ("으로", "로"),
    "(이)라는": ("이라는", "라는"),
}
_PATTERN = re.compile(
    r"(?P<word>[^\s(]*?)(?P<mark>\**)(?P<particle>"
    + "|".join(re.escape(p) for p in PARTICLES)
    + ")"
)


def final_consonant(word: str) -> int:
    """The final consonant (종성 index, 0 for none) of how `word` ends when read in Korean."""
    text = word.rstrip(" `'\")]}*_.,!?")
    if not text:
        return 0
    last = text[-1]
    if HANGUL_FIRST <= ord(last) <= HANGUL_LAST:
        return (ord(last) - HANGUL_FIRST) % JONG_COUNT
    if last in DIGIT_FINAL:
        return DIGIT_FINAL[last]
    if last.isascii() and last.isalpha():
        if last.isupper() and (len(text) == 1 or text[-2:].isupper()):
            return LETTER_FINAL.get(last, 0)
        lower = text.lower()
        return next((final for end, final in WORD_FINAL if lower.endswith(end)), 0)
    return 0


def particle_for(word: str, both_forms: str) -> str:
    """The form of `both_forms` (e.g. "이(가)") that follows `word`."""
    after_consonant, after_vowel = PARTICLES[both_forms]
    final = final_consonant(word)
    if both_forms == "(으)로":
        return after_consonant if final not in (0, RIEUL) else after_vowel
    return after_consonant if final else after_vowel


def has_particles(text: str) -> bool:
    """True if `text` writes a particle in both forms."""
    return any(both in text for both in PARTICLES)


def resolve_particles(text: str) -> str:
    """Every both-forms particle in `text` replaced by the form its word needs."""

    def pick(found: re.Match[str]) -> str:
        word, mark = found.group("word"), found.group("mark")
        return word + mark + particle_for(word, found.group("particle"))

    return _PATTERN.sub(pick, text)
