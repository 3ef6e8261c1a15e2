"""The one reading of code fences that the parser, the splitter and the wiki share."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.core.fences import (
    Opening,
    closes,
    json_openings_last_first,
    longest_backtick_run,
    open_fence,
    opener,
    sole_fence_body,
)


@pytest.mark.parametrize(
    ("line", "marker"),
    [
        ("```", "```"),
        ("```json", "```"),
        ("   ````py title", "````"),
        ("    ```", None),  # four spaces: indented code, not a fence
        ("`" * 17, None),  # too long a run is plain text
        ("``` a`b", None),  # a backtick in the info string
        ("``", None),
    ],
)
def test_opening_lines(line: str, marker: str | None) -> None:
    fence = opener(line)
    assert (fence.marker if fence else None) == marker


@pytest.mark.parametrize(
    ("text", "still_open"),
    [
        ("a\n```py\ncode\n```\nb", False),
        ("a\n```py\ncode", True),
        ("````\n```\n", True),  # a shorter run does not close a longer fence
        ("````\n`````  \n", False),
        ("```\n```x\n", True),  # a closing line holds nothing but backticks
    ],
)
def test_open_fence_at_the_end(text: str, still_open: bool) -> None:
    assert (open_fence(text) is not None) is still_open


def test_json_openings_are_found_last_first_with_their_spans() -> None:
    text = "p\n```json\n{}\n```\n```py\nx\n```\n  ```\n{}\n```"
    found = list(json_openings_last_first(text))
    assert [o.info for o in found] == ["", "", "", "json"]
    last = found[0]
    assert text[last.start : last.body] == "  ```\n"
    first = found[-1]
    assert text[first.start : first.body] == "```json\n" and first.start == 2


def test_a_flood_of_openings_is_read_lazily() -> None:
    text = "```json\n" * 200_000
    first = next(json_openings_last_first(text))
    assert first.body == len(text)


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ('```json\n{"a": 1}\n```', '{"a": 1}'),
        ('  \n```\n{"a": 1}\n```\n', '{"a": 1}'),
        ('{"a": 1}', None),
        ('```py\n{"a": 1}\n```', None),
        ('```json\n{"a": 1}', None),
    ],
)
def test_sole_fence_body(text: str, body: str | None) -> None:
    assert sole_fence_body(text) == body


def test_closing_line_and_backtick_runs() -> None:
    fence = opener("````")
    assert fence is not None and closes("````", fence) and not closes("```", fence)
    assert longest_backtick_run("a ``` b ````` c") == 5 and longest_backtick_run("") == 0


@given(
    st.lists(
        st.sampled_from(
            ["```", "````", "```json", "```py", " ", "   ", "    ", "\n", "x", "`", "JSON", "{}"]
        ),
        max_size=30,
    ).map("".join)
)
def test_the_backward_search_finds_what_a_forward_reading_finds(text: str) -> None:
    # Every opening line, first to last, read forwards (whether or not inside a fence).
    openings = (
        Opening(m.start(), m.end(), m.group(2).strip().lower())
        for m in re.finditer(r"^ {0,3}(`{3,16})([^`\n]*)\n", text, re.MULTILINE)
    )
    forward = [o for o in openings if o.info in ("", "json")]
    assert list(json_openings_last_first(text)) == forward[::-1]
