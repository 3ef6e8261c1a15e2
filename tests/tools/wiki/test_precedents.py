"""Precedents: past Conclusion pages found for a new proposal, from a wiki holding earlier
debates (Wiki.js through its search, the local wiki through a full-text index in SQLite)."""

from __future__ import annotations

import os

from tests.tools.wiki.support import Site
from tools.wiki.precedents import LocalPrecedents, WikiJsPrecedents, precedents_for, terms

CACHE = (
    "debates/캐시-계층-선택/conclusion",
    "캐시 계층 선택 — 결론",
    "## 결정\nin-process LRU로 시작, 인스턴스 셋을 넘으면 Redis",
)
LOGS = ("debates/로그-보관-기간/conclusion", "로그 보관 기간 — 결론", "## 결정\n90일 보관 후 삭제")
AGENDA = ("debates/캐시-계층-선택/agenda", "캐시 계층 선택 — 안건", "Redis 캐시 계층 안건")
ELSEWHERE = ("notes/캐시/conclusion", "캐시 메모", "Redis 캐시 계층 메모")


async def _write(site: Site, *pages: tuple[str, str, str]) -> None:
    backend = site.backend()
    try:
        for path, title, content in pages:
            await backend.write(path, title, content, await backend.read(path))
    finally:
        await backend.aclose()


def test_precedent_terms_are_the_longer_words() -> None:
    assert terms("캐시 계층: Redis vs LRU?") == ["redis", "lru", "vs", "계층", "캐시"]
    assert terms("a 데이터베이스") == ["데이터베이스"]  # one character says nothing


async def test_precedents_from_the_wiki_holding_earlier_debates(site: Site) -> None:
    await _write(site, CACHE, LOGS, AGENDA, ELSEWHERE)
    backend = site.backend()
    try:
        search = precedents_for(backend, "debates")
        assert isinstance(search, LocalPrecedents if site.fake is None else WikiJsPrecedents)
        found = await search.search("캐시 계층을 Redis로 바꿀까?\nRedis 도입 여부", 3)
        assert [p.title for p in found] == ["캐시 계층 선택 — 결론"]  # not the agenda, not notes/
        assert found[0].url == backend.url(CACHE[0])
        assert await search.search("점심 메뉴", 3) == ()
        if site.fake is not None:
            assert site.fake.searches  # through Wiki.js's own search
    finally:
        await backend.aclose()


async def test_precedents_local_index_follows_changed_files(site: Site) -> None:
    if site.fake is not None:
        return  # the index is the local wiki's
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
    assert len(await search.search("Redis 캐시", 3)) == 2  # re-indexed after the change
