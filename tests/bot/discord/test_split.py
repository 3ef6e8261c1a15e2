"""The lossless split: nothing lost or reordered, pieces within limits, fences balanced."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord.render_split import MIN_LIMIT, FenceSplitter, SplitError, split_text
from tests.bot.discord.pieces import join_pieces

# Tokens that stress fences: runs of backticks with and without info strings, indented and
# over-long fence lines, CRLF, blank lines, long words without spaces, Hangul, emoji.
TOKENS = [
    "`",
    "``",
    "```",
    "````",
    "```py\n",
    "```\n",
    "````\n",
    "   ```js\n",
    "    ```\n",
    "``` \n",
    "~~~\n",
    "\n",
    "\n\n",
    "\r\n",
    " ",
    "\t",
    "word ",
    "긴단어",
    "🙂",
    "@everyone ",
    "x" * 150,
    "```" + "i" * 80 + "\n",
    "`" * 20 + "\n",
]
adversarial = st.lists(st.sampled_from(TOKENS), max_size=120).map("".join)
any_text = st.one_of(adversarial, st.text(max_size=1500))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=any_text, limit=st.integers(MIN_LIMIT, 400))
def test_pieces_fit_and_join_back_exactly(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    assert all(len(piece) <= limit for piece in pieces)
    assert all(pieces), "no empty piece"
    assert join_pieces(pieces) == text


@settings(max_examples=200, deadline=None)
@given(text=adversarial, limits=st.lists(st.integers(MIN_LIMIT, 300), min_size=1, max_size=8))
def test_varying_limits_join_back_exactly(text: str, limits: list[int]) -> None:
    """The renderer packs messages with a different limit per piece; the join needs none."""
    splitter = FenceSplitter(text)
    pieces = []
    while not splitter.done:
        limit = limits[len(pieces) % len(limits)]
        pieces.append(splitter.take(limit))
        assert len(pieces[-1]) <= limit
    assert join_pieces(pieces) == text


# ---- balance, on markdown as debaters write it ---------------------------------------------
_FENCE_LINE = re.compile(r" {0,3}(`{3,})([^`]*)")


def _open_fence_at_end(piece: str) -> bool:
    """An independent reading: is a ``` block left open at the end of this piece alone?"""
    marker = None
    for line in piece.split("\n"):
        match = _FENCE_LINE.fullmatch(line)
        if marker is None and match:
            marker = match.group(1)
        elif (
            marker is not None
            and match
            and not match.group(2).strip()
            and len(match.group(1)) >= len(marker)
        ):
            marker = None
    return marker is not None


words = st.text(alphabet="abc 가나다.,", min_size=1, max_size=60)
prose = st.lists(words, min_size=1, max_size=6).map("\n".join)
code = st.tuples(st.sampled_from(["", "py", "json", "bash"]), st.lists(words, max_size=15)).map(
    lambda pair: f"```{pair[0]}\n" + "\n".join(pair[1]) + "\n```"
)
markdown = st.lists(st.one_of(prose, code), max_size=25).map("\n\n".join)


@settings(max_examples=300, deadline=None)
@given(text=markdown, limit=st.integers(MIN_LIMIT, 300))
def test_every_piece_closes_what_it_opens(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    for piece in pieces:
        assert not _open_fence_at_end(piece), piece
    assert join_pieces(pieces) == text


def test_a_cut_inside_a_fence_closes_and_reopens_with_the_info_string() -> None:
    body = "\n".join(f"line {i:03d} of the code" for i in range(40))
    text = f"Before.\n\n```python\n{body}\n```\n\nAfter."
    pieces = split_text(text, 200)
    inside = [p for p in pieces[1:-1] if "line" in p]
    assert inside, pieces
    for piece in inside:
        assert piece.startswith("```python\n")
        assert piece.endswith("```")
    assert join_pieces(pieces) == text


def test_cut_points_prefer_paragraphs_then_lines() -> None:
    paragraph = ("word " * 30).strip()
    text = "\n\n".join([paragraph] * 6)
    pieces = split_text(text, 400)
    assert all(p.endswith("\n\n") for p in pieces[:-1])
    assert join_pieces(pieces) == text


def test_a_long_line_is_cut_at_a_space_and_never_before_a_fence() -> None:
    text = ("abc " * 100) + "```py not a fence here " + ("d" * 300)
    pieces = split_text(text, 150)
    assert join_pieces(pieces) == text
    assert not any(p.lstrip(" ").startswith("```") for p in pieces[1:])


def test_limits_below_the_minimum_are_refused() -> None:
    with pytest.raises(SplitError):
        split_text("x" * 500, MIN_LIMIT - 1)


def test_pieces_from_elsewhere_are_refused_not_mangled() -> None:
    pieces = split_text("```py\n" + "x = 1\n" * 100, 150)
    with pytest.raises(SplitError):
        join_pieces([pieces[0], pieces[1].removeprefix("```py\n"), *pieces[2:]])
    with pytest.raises(SplitError):
        join_pieces([pieces[0].removesuffix("```"), *pieces[1:]])


def test_empty_text_has_no_pieces() -> None:
    assert split_text("") == []
    assert join_pieces([]) == ""
