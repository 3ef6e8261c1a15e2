"""Shortening says how much it left out and stays within its limit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from handlers.core.shorten import omitted_note, shorten


def test_a_text_that_fits_is_whole() -> None:
    assert shorten("abc", 3) == "abc"


def test_the_note_counts_what_is_missing() -> None:
    text = "x" * 5000
    cut = shorten(text, 4000)
    assert len(cut) <= 4000 and cut.endswith(f"… (+{5000 - cut.index('…'):,})")


@given(st.text(max_size=3000), st.integers(min_value=30, max_value=2000))
def test_within_the_limit_and_the_count_is_exact(text: str, limit: int) -> None:
    # limit >= 30: the note (up to 25 characters here) fits; below that only it is shown, cut.
    cut = shorten(text, limit, lambda n: f" [{n} more: see the wiki]")
    assert len(cut) <= limit
    if cut != text:
        head, _, rest = cut.rpartition(" [")
        assert text.startswith(head) and rest == f"{len(text) - len(head)} more: see the wiki]"
    assert omitted_note(1234) == "… (+1,234)"
