"""Every spelling of a name: found however it is written, and replaced where it stands.

A name is found in any case or width (`Ｃｌａｕｄｅ`, `𝐂𝐥𝐚𝐮𝐝𝐞`), with lookalike letters of
other scripts (a Cyrillic `С` in `Сlaude`), accents, or invisible characters (a zero-width
space, a soft hyphen) inside it, its words joined by any separator or none (`Claude Code`,
`ClaudeCode`, `claude_code`), and a version or model word glued on (`Claude3`, `Claude 3.5`,
`Gemini-2.5-pro`: a number right after a longer name is read as its version). The text is
folded one character at a time, so each folded character knows where it came from and only
the name's own span of the original text is replaced.

Where a name may start and end:
- a short name (three Latin letters or digits at most, `AG`) only as a whole word: `AGREE`,
  `agenda` and `tag` keep their letters;
- a longer Latin name also glued to what follows (`Geminis`, `ClaudeBot`) and, after other
  letters, where it starts with a capital (`MyClaudeBot`, `MYCLAUDEBOT`), but not inside a
  lower-case word that happens to contain it (`philanthropic`, `octopus`); the price of
  hiding names glued into capitalised words is that a word in capitals that contains one is
  cut too (`PHILANTHROPIC`);
- a name in another script (`클로드`, `クロード`) anywhere: Korean and Japanese particles attach
  (`클로드는`, `クロードは`).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from functools import cached_property
from itertools import accumulate

# Letters of other scripts that pass for a Latin one: each group is the Latin letter, then them.
LOOKALIKES = (
    "aаАαΑ bВΒ cсСϲϹ dԁ eеЕΕ gɡ hНһΗ iіІιΙı jјЈ kкКκΚ lӏӀ mМΜ nΝ oоОοΟ pрРρΡ sѕЅ tтТΤ uυ vν"
    " wԝ xхХχΧ yуУΥ zΖ"
)
_PASSES_FOR = {
    char: group[0].upper() if char.isupper() else group[0]
    for group in LOOKALIKES.split()
    for char in group[1:]
}
_GAP = "\u200b"  # what every invisible character folds to: any run of them may sit in a name
_INVISIBLE = frozenset({"Cf", "Mn", "Me"})  # format characters (U+200B, U+00AD…), bare marks
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")  # Hangul fillers: letters that show nothing
_FOLD_LIMIT = 1 << 16  # characters remembered: a text of every code point cannot fill memory

_SEPARATORS = r" \t_\-\u2010-\u2015\u00b7"  # what may join a name's words (or nothing)
_SPLIT = re.compile(rf"[\s{_SEPARATORS}]+")
_JOINED = re.compile(rf"[{_SEPARATORS}{_GAP}]*")
_LATIN = r"A-Za-z\u00c0-\u024f"
_WORD = rf"0-9_{_LATIN}"
_SHORT = 3  # a name of this many Latin letters or digits at most is found only as a whole word
_INSIDE = f"{_GAP}*+"  # between two letters of a word
_BETWEEN = f"{_INSIDE}(?:[{_SEPARATORS}]{_INSIDE}){{0,3}}+"  # between two words of a name
_VERSION = r"[\-_. ]?v?\d++(?:\.\d++)*+"
_ALONE = rf"(?<![{_WORD}].)"  # after the first letter: nothing glued before it
_UNGLUED = rf"(?<![{_LATIN}].)"  # after the first letter: no letter before it


class _Fold(dict[int, str]):
    """Each character's folded form, worked out the first time it is met (for str.translate,
    which does the folding itself, in C)."""

    def __missing__(self, code: int) -> str:
        if len(self) >= _FOLD_LIMIT:
            self.clear()
        self[code] = folded = _fold_character(chr(code))
        return folded


_FOLD = _Fold()


def _fold_character(char: str) -> str:
    """`char` as names are matched: its compatibility form (NFKC: width, styled letters), a
    lookalike as the Latin letter it passes for, a Latin letter without its accents, anything
    invisible as one zero-width space. The case is kept (a capital can open a glued name)."""
    if unicodedata.category(char) in _INVISIBLE or char in _BLANK_LETTERS:
        return _GAP
    plain = unicodedata.normalize("NFKC", char)
    return "".join(_PASSES_FOR.get(c) or _bare(c) for c in plain) or _GAP


def _bare(char: str) -> str:
    """A Latin letter without its accents (`é`: `e`); anything else as it is."""
    parts = unicodedata.normalize("NFD", char)
    if parts[0].isascii() and all(unicodedata.combining(mark) for mark in parts[1:]):
        return parts[0]
    return char


class _Folded:
    """A text folded character by character, and where each folded character came from."""

    def __init__(self, text: str) -> None:
        self.original = text
        self.text = text.translate(_FOLD)
        # Almost always each character folds to one (it never folds to none); only a text
        # with some that fold to more (`ﬁ`: `fi`) needs the map from folded to original.
        self.even = len(self.text) == len(text)

    @cached_property
    def _ends(self) -> list[int]:
        """The running end of each character's folded form."""
        return list(accumulate(map(len, map(_FOLD.__getitem__, map(ord, self.original)))))

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that the folded span `start:end` came from."""
        if self.even:
            return start, end
        return bisect_right(self._ends, start), bisect_right(self._ends, end - 1) + 1


def replace_spellings(text: str, names: Mapping[str, str], model_words: Iterable[str] = ()) -> str:
    """`text` with every spelling of each name of `names` replaced by its value, in one pass
    (a value is never read again); `model_words` (`pro`, `flash`) are taken with a version
    after a longer name. A name written again right after the same value, joined only by
    separators (`Claude Sonnet`, `claude-sonnet-4-5` with both B), is not written twice."""
    pattern, values = _pattern(names, tuple(model_words))
    if pattern is None:
        return text
    folded, out = _Folded(text), list[str]()
    copied, last, last_end = 0, "", -1
    for found in pattern.finditer(folded.text):
        value = values[found.lastindex or 0]
        start, end = folded.span(*found.span())
        if value != last or not _JOINED.fullmatch(folded.text, last_end, found.start()):
            out += (text[copied:start], value)
        copied, last, last_end = end, value, found.end()
    out.append(text[copied:])
    return "".join(out)


def _pattern(
    names: Mapping[str, str], model_words: tuple[str, ...]
) -> tuple[re.Pattern[str] | None, list[str]]:
    """One pattern for every name: an alternative per first letter (in each case, with what
    may stand before it), so that the regex engine skips at once a position no name starts at;
    after it the rest of the names as a tree (a shared beginning is read once, the longest name
    first). Each name ends in an empty group of its own, whose number is its value's index."""
    tail = _tail(model_words)
    starts: dict[tuple[str, str, str], list[_Path]] = {}  # (first letter, before it, after)
    for name, value in names.items():
        words = [w.lower() for w in _SPLIT.split(name.translate(_FOLD).replace(_GAP, "")) if w]
        if not words:
            continue
        letters, pieces = "".join(words), _pieces(words)
        if len(letters) <= _SHORT and letters.isascii():
            before = dict.fromkeys((letters[0], letters[0].upper()), _ALONE)
            end, after = f"(?![{_WORD}])()", ""
        else:  # a capital may open a longer Latin name glued after other letters
            latin = re.match(f"[{_LATIN}]", letters[0]) is not None
            before = {letters[0]: _UNGLUED if latin else "", letters[0].upper(): ""}
            end, after = "()", tail
        for first, unglued in before.items():
            starts.setdefault((first, unglued, after), []).append((pieces, end, value))
    values, branches = [""], []  # group 0 is the whole match, never a name
    for (first, unglued, after), paths in sorted(starts.items(), key=_longest_first):
        branches.append(f"{re.escape(first)}{unglued}(?i:{_tree(paths, values)}){after}")
    return (re.compile("|".join(branches)) if branches else None), values


# A name as the pattern reads it: its letters after the first, how it ends, its value.
_Path = tuple[tuple[str, ...], str, str]


def _pieces(words: list[str]) -> tuple[str, ...]:
    """A name's letters after its first, each with what may come before it: invisible
    characters inside a word, separators (or none) between two words."""
    pieces = [_INSIDE + re.escape(char) for char in words[0][1:]]
    for word in words[1:]:
        pieces.append(_BETWEEN + re.escape(word[0]))
        pieces += (_INSIDE + re.escape(char) for char in word[1:])
    return tuple(pieces)


def _tree(paths: list[_Path], values: list[str]) -> str:
    """`paths` as one alternation that reads a shared beginning once, the longer names first
    and a name that ends here last; each end's value joins `values` as its group opens."""
    after: dict[str, list[_Path]] = {}
    ends: dict[str, str] = {}
    for pieces, end, value in paths:
        if pieces:
            after.setdefault(pieces[0], []).append((pieces[1:], end, value))
        else:
            ends.setdefault(end, value)  # a name given twice (`claude code`, `claude-code`)
    branches = [
        piece + _tree(rest, values)
        for piece, rest in sorted(after.items(), key=lambda item: -_longest(item[1]))
    ]
    for end, value in ends.items():
        values.append(value)
        branches.append(end)
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _longest_first(start: tuple[tuple[str, str, str], list[_Path]]) -> tuple[str, int]:
    """The order of the alternatives of one first letter: the one with the longest name first."""
    return start[0][0], -_longest(start[1])


def _longest(paths: list[_Path]) -> int:
    """How many letters the longest of `paths` has left."""
    return max(len(pieces) for pieces, _, _ in paths)


def _tail(model_words: tuple[str, ...]) -> str:
    """What a longer name may have glued after it: versions and model words, any number."""
    words = "|".join(map(re.escape, model_words))
    glued = f"|[\\-_ ]?(?:{words})(?![0-9a-z])" if words else ""
    return f"(?i:(?:{_VERSION}{glued})*+)"
