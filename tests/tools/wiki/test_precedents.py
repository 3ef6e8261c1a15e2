"""Precedents: past Conclusion pages found for a new proposal by what they are about, from a
wiki holding earlier debates (Wiki.js through its search, the local wiki from its files)."""

from __future__ import annotations

import os

from tests.tools.wiki.support import Site
from tools.wiki.precedents import LocalPrecedents, WikiJsPrecedents, precedents_for
from tools.wiki.relevance import relevant, terms

CACHE = (
    "debates/캐시-계층-선택/conclusion",
    "캐시 계층 선택 — 결론",
    "## 결정\nin-process LRU로 시작, 인스턴스 셋을 넘으면 Redis",
)
LOGS = ("debates/로그-보관-기간/conclusion", "로그 보관 기간 — 결론", "## 결정\n90일 보관 후 삭제")
LUNCH = ("debates/점심-김밥-vs-라면/conclusion", "점심: 김밥 vs 라면 — 결론", "## 결정\n김밥")
EDITOR = (
    "debates/editor-vim-vs-emacs/conclusion",
    "Editor: vim vs emacs — Conclusion",
    "## Decision\nWhich option should we use? Both, in the end.",
)
AGENDA = ("debates/캐시-계층-선택/agenda", "캐시 계층 선택 — 안건", "Redis 캐시 계층 안건")
ELSEWHERE = ("notes/캐시/conclusion", "캐시 메모", "Redis 캐시 계층 메모")


async def _write(site: Site, *pages: tuple[str, str, str]) -> None:
    backend = site.backend()
    try:
        for path, title, content in pages:
            await backend.write(path, title, content, await backend.read(path))
    finally:
        await backend.aclose()


def test_precedent_terms_are_the_content_words() -> None:
    assert terms("캐시 계층: Redis vs LRU?") == ["redis", "lru", "계층", "캐시"]  # "vs" aside
    assert terms("a 데이터베이스") == ["데이터베이스"]  # one character says nothing
    # A Korean particle is trimmed (a page may hold the noun with another one), filler dropped.
    assert terms("캐시 계층을 Redis로 바꿀까? 어떤 것인가") == ["redis", "계층", "캐시"]
    assert terms("Qual cache usar: Redis ou LRU? Which option is best?") == [
        "cache",
        "redis",
        "best",
        "lru",
    ]


def test_one_shared_filler_or_common_word_is_not_a_precedent() -> None:
    wanted = ["redis", "계층", "캐시"]
    shared = {"cache": ("redis", "계층", "캐시"), "logs": ("캐시",), "lunch": ()}
    assert relevant(shared, wanted, 3) == [("cache", ("redis", "계층", "캐시"))]
    # A word on most pages says nothing in this wiki: sharing it and one more is not enough.
    everywhere = {f"p{n}": ("캐시",) for n in range(4)} | {"p4": ("캐시", "redis")}
    assert relevant(everywhere, wanted, 5) == []
    assert relevant({"only": ("redis",)}, ["redis"], 1) == [("only", ("redis",))]


async def test_precedents_from_the_wiki_holding_earlier_debates(site: Site) -> None:
    await _write(site, CACHE, LOGS, AGENDA, ELSEWHERE, LUNCH, EDITOR)
    backend = site.backend()
    try:
        search = precedents_for(backend, "debates")
        assert isinstance(search, LocalPrecedents if site.fake is None else WikiJsPrecedents)
        found = await search.search("캐시 계층을 Redis로 바꿀까?\nRedis vs LRU 도입 여부", 3)
        assert [p.title for p in found] == ["캐시 계층 선택 — 결론"]  # not the agenda, not notes/
        assert found[0].url == backend.url(CACHE[0])
        assert found[0].because == ("redis", "lru", "계층", "캐시")  # why it matched
        assert await search.search("저녁 메뉴: 피자 vs 치킨, which option?", 3) == ()
        if site.fake is not None:
            assert site.fake.searches  # through Wiki.js's own search
    finally:
        await backend.aclose()


async def test_precedents_local_search_follows_changed_files(site: Site) -> None:
    if site.fake is not None:
        return  # the files are the local wiki's
    await _write(site, LOGS)
    backend = site.backend()
    search = precedents_for(backend, "debates")
    assert search is not None
    assert await search.search("Redis 인스턴스", 3) == ()
    assert [p.title for p in await search.search("로그 보관", 3)] == ["로그 보관 기간 — 결론"]
    await _write(site, CACHE)
    found = await search.search("Redis 캐시", 3)
    assert [p.title for p in found] == ["캐시 계층 선택 — 결론"]
    file = site.folder / "debates" / "로그-보관-기간" / "conclusion.md"
    file.write_text(
        file.read_text(encoding="utf-8") + "\nRedis 로그 캐시도 검토\n", encoding="utf-8"
    )
    os.utime(file, (file.stat().st_atime, file.stat().st_mtime + 5))
    assert len(await search.search("Redis 캐시", 3)) == 2  # read again after the change
