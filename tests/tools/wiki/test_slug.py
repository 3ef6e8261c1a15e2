"""Slug rules, property-tested: any topic gives a valid, stable path unique to its debate."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.core.model import WikiPage
from tools.wiki.slug import (
    MAX_PATH_CHARS,
    SlugError,
    check_root,
    page_path,
    path_problems,
    topic_slug,
)

topics = st.text(max_size=400)
hangul = st.text(alphabet=st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3), min_size=1)
ids = st.integers(min_value=1, max_value=10**12)
roots = st.sampled_from(["debates", "", "/debates/", "회의록/팀", "a" * 200])


def independent_problems(path: str) -> list[str]:
    """The notes' rules, restated here so a bug in path_problems cannot hide a bad slug."""
    segments = path.split("/")
    found = []
    if len(path) > 255:
        found.append("too long")
    if any(not segment for segment in segments):
        found.append("empty segment")
    if any(ch in '.?:"|<>*#\\' or ch.isspace() for ch in path):
        found.append("forbidden character")
    first = segments[0]
    if len(first) < 3 or (len(first) == 2 and first.isalpha()):
        found.append("first segment read as a locale")
    return found


@given(debate_id=ids, topic=topics, root=roots)
def test_any_topic_gives_valid_paths_for_every_page(debate_id: int, topic: str, root: str) -> None:
    slug = topic_slug(debate_id, topic, root)
    for page in WikiPage:
        path = page_path(root, slug, page.value)
        assert independent_problems(path) == []
        assert path_problems(path) == []
        assert len(path) <= MAX_PATH_CHARS
        assert path.rsplit("/", 1)[-1] == page.value
        assert len(path.encode("utf-8").split(b"/")[-2]) <= 255  # a file name for LocalWiki


@given(first=ids, second=ids, topic=topics, other_topic=topics)
def test_slugs_are_unique_per_debate_and_stable(
    first: int, second: int, topic: str, other_topic: str
) -> None:
    assert topic_slug(first, topic, "debates") == topic_slug(first, topic, "debates")
    if first != second:
        assert topic_slug(first, topic, "debates") != topic_slug(second, other_topic, "debates")


@given(debate_id=ids, words=st.lists(hangul, min_size=1, max_size=4))
def test_hangul_is_kept_as_is(debate_id: int, words: list[str]) -> None:
    topic = " ".join(words)
    slug = topic_slug(debate_id, topic, "debates")
    expected = "-".join(unicodedata.normalize("NFC", word) for word in words)
    assert slug.startswith(f"{debate_id}-")
    assert expected.startswith(slug.removeprefix(f"{debate_id}-"))


def test_a_known_topic() -> None:
    slug = topic_slug(12, "캐시 계층 선택 — Redis vs in-process LRU?", "debates")
    assert slug == "12-캐시-계층-선택-redis-vs-in-process-lru"
    assert page_path("/debates/", slug, "agenda") == f"debates/{slug}/agenda"
    assert topic_slug(3, "??? ...", "debates") == "debate-3"
    keyed = topic_slug(12, "캐시 계층 선택 — Redis vs in-process LRU?", "debates", "a1b2c3")
    assert keyed == "12-a1b2c3-캐시-계층-선택-redis-vs-in-process-lru"
    assert topic_slug(3, "??? ...", "debates", "a1b2c3") == "debate-3-a1b2c3"


@given(
    debate_id=ids,
    topic=topics,
    keys=st.lists(
        st.text("0123456789abcdef", min_size=6, max_size=6), min_size=2, max_size=2, unique=True
    ),
)
def test_one_id_with_two_keys_gives_two_folders(
    debate_id: int, topic: str, keys: list[str]
) -> None:
    first, second = (topic_slug(debate_id, topic, "debates", key) for key in keys)
    assert first != second
    assert path_problems(page_path("debates", first, "working-document")) == []


@pytest.mark.parametrize("root", ["ko", "a.b", "login", "with space", "x" * 250])
def test_a_root_that_cannot_hold_pages_is_refused(root: str) -> None:
    with pytest.raises(SlugError):
        check_root(root)
