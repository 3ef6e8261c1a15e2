"""The shared behavioural suite: every test runs against Wiki.js (the fake) and LocalWiki."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from handlers.core.effects import LogNote, WriteAgenda, WriteConclusion, WriteWorkingDocument
from handlers.core.model import AG, CLAUDE, Conclusion, Outcome, Phase
from tests.effects import logged
from tests.tools.wiki.support import (
    TOPIC,
    WAIT,
    CrashAfterWrite,
    Notices,
    OutboxFactory,
    Site,
    debate,
    turn,
)

BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"
PAGE_NAMES = {  # each title wholly in the debate's language (Korean here)
    "agenda": "안건",
    "working-document": "작업 문서",
    "round-log": "라운드 기록",
    "conclusion": "결론",
}


def url(n: int) -> str:
    return f"https://discord.com/channels/1/2/{1000 + n}"


async def test_a_whole_debate_writes_four_pages(site: Site, make_outbox: OutboxFactory) -> None:
    notices = Notices()
    outbox = make_outbox(site.backend(), notices)
    start = debate()
    texts = [
        f'턴 {n}의 전문입니다.\n\n- 근거 {n}\n\n```json\n{{"stance": "partial"}}\n```'
        for n in range(1, 5)
    ]
    await outbox.write(start, WriteAgenda())
    for n, text in enumerate(texts, 1):
        await outbox.write(start, *logged(turn(n, text), url(n)))
    await outbox.write(
        replace(start, moderation=replace(start.moderation, working_document="# 초안\n\n- LRU")),
        WriteWorkingDocument(1),
    )
    final_doc = "# 초안 v2\n\n- LRU로 시작\n- 인스턴스 3개를 넘으면 Redis"
    await outbox.write(
        replace(start, moderation=replace(start.moderation, working_document=final_doc)),
        WriteWorkingDocument(3),
    )
    ended = replace(
        start,
        phase=Phase.CONCLUDED,
        ending=replace(start.ending, outcome=Outcome.CONSENSUS),
        floor=replace(start.floor, round=2),
    )
    conclusion = Conclusion(
        decision="in-process LRU로 시작한다",
        agreed=("운영 부담이 작다",),
        open_issues=("Redis로 넘어갈 시점",),
        positions=((AG, "LRU면 충분"), (CLAUDE, "LRU 후 Redis")),
        next_steps=("부하 테스트",),
    )
    await outbox.write(ended, WriteConclusion(conclusion))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)

    for page, name in PAGE_NAMES.items():
        seen = site.page(f"{BASE}/{page}")
        assert seen is not None, page
        assert seen.title == f"{TOPIC} — {name}"
        assert seen.published
    agenda = site.page(f"{BASE}/agenda")
    assert agenda is not None
    for part in (
        "다음 분기 배포에서 어떤 캐시 계층을 쓸 것인가?",
        "> carol: 운영 부담이…",
        "최대 3라운드",
    ):
        assert part in agenda.content
    log = site.page(f"{BASE}/round-log")
    assert log is not None
    spots = [log.content.index(text) for text in texts]
    assert spots == sorted(spots)
    assert all(log.content.count(text) == 1 for text in texts)
    assert all(url(n) in log.content for n in range(1, 5))
    assert "라운드 2 · 턴 4 · AG (Gemini)" in log.content
    assert "gemini-pro" in log.content
    document = site.page(f"{BASE}/working-document")
    assert document is not None
    assert document.content == final_doc
    end = site.page(f"{BASE}/conclusion")
    assert end is not None
    for part in (
        "in-process LRU로 시작한다",
        "- 운영 부담이 작다",
        "- Redis로 넘어갈 시점",
        "**Claude Code**: LRU 후 Redis",
        "- 부하 테스트",
        "합의",
    ):
        assert part in end.content
    link = outbox.page_url(start, "agenda")
    assert link == site.backend().url(f"{BASE}/agenda")
    assert "%EC%BA%90%EC%8B%9C" in link  # 캐시, percent-encoded
    assert notices.said == []
    assert await outbox.pending(start.id) == 0


async def test_repeats_and_no_op_updates_send_nothing(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend())
    start = debate(working_document="v1")
    path = f"{BASE}/working-document"
    await outbox.write(start, WriteWorkingDocument(1))
    await outbox.write(start, *logged(turn(1, "첫 발언"), url(1)))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    version = site.version(path)
    log_version = site.version(f"{BASE}/round-log")
    sent = len(site.fake.writes()) if site.fake else 0

    other = replace(start, moderation=replace(start.moderation, working_document="other"))
    await outbox.write(other, WriteWorkingDocument(1))  # the same key
    await outbox.write(start, WriteWorkingDocument(2))  # a new entry with the same content
    await outbox.write(start, *logged(turn(1, "첫 발언"), url(1)))  # the same turn again
    await asyncio.wait_for(outbox.drained(start.id), WAIT)

    assert site.version(path) == version
    assert site.version(f"{BASE}/round-log") == log_version
    seen = site.page(path)
    assert seen is not None
    assert seen.content == "v1"
    if site.fake:
        assert len(site.fake.writes()) == sent


async def test_a_person_edit_is_not_overwritten(site: Site, make_outbox: OutboxFactory) -> None:
    notices = Notices()
    outbox = make_outbox(site.backend(), notices)
    path = f"{BASE}/working-document"
    await outbox.write(debate(working_document="봇 초안 v1"), WriteWorkingDocument(1))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    site.edit_as_person(path, "봇 초안 v1\n\n사람이 덧붙인 메모")

    await outbox.write(debate(working_document="봇 초안 v2"), WriteWorkingDocument(2))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    seen = site.page(path)
    assert seen is not None
    assert "사람이 덧붙인 메모" in seen.content
    assert seen.content.index("사람이 덧붙인 메모") < seen.content.index("봇 초안 v2")
    assert notices.keys() == ["wiki.human_edit_kept"]
    assert notices.said[0][2] == {
        "page": "작업 문서",
        "url": outbox.page_url(debate(), "working-document"),
    }

    await outbox.write(debate(working_document="봇 초안 v3"), WriteWorkingDocument(3))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    seen = site.page(path)
    assert seen is not None
    assert "사람이 덧붙인 메모" in seen.content
    assert "봇 초안 v3" in seen.content
    assert "봇 초안 v2" not in seen.content  # the bot's own section is replaced, the person's kept
    assert notices.keys() == ["wiki.human_edit_kept"]  # told once per edit


async def test_a_person_edit_of_the_round_log_is_kept(
    site: Site, make_outbox: OutboxFactory
) -> None:
    notices = Notices()
    outbox = make_outbox(site.backend(), notices)
    path = f"{BASE}/round-log"
    await outbox.write(debate(), *logged(turn(1, "첫 발언 전문"), url(1)))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    before = site.page(path)
    assert before is not None
    site.edit_as_person(path, before.content + "\n\n> 사람의 코멘트\n")

    await outbox.write(debate(), *logged(turn(2, "두 번째 발언 전문"), url(2)))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    seen = site.page(path)
    assert seen is not None
    assert seen.content.count("첫 발언 전문") == 1
    assert seen.content.index("사람의 코멘트") < seen.content.index("두 번째 발언 전문")
    assert notices.keys() == ["wiki.human_edit_kept"]


@pytest.mark.parametrize(("page", "nth"), [("round-log", 2), ("agenda", 1)])
async def test_a_crash_after_the_page_write_writes_nothing_twice(
    site: Site, make_outbox: OutboxFactory, page: str, nth: int
) -> None:
    path = f"{BASE}/{page}"
    first = make_outbox(CrashAfterWrite(site.backend(), path, nth))
    await first.write(debate(), WriteAgenda())
    await first.write(debate(), *logged(turn(1, "첫 발언 전문"), url(1)))
    await first.write(debate(), *logged(turn(2, "두 번째 발언 전문"), url(2)))
    await asyncio.wait_for(first.drained(7), WAIT)  # the writer died with the "process"
    assert await first.pending(7) >= 1
    await first.aclose()
    landed = site.page(path)
    assert landed is not None
    version = site.version(path)

    notices = Notices()
    second = make_outbox(site.backend(), notices)
    await second.start()
    await asyncio.wait_for(second.drained(7), WAIT)
    assert await second.pending(7) == 0
    assert site.version(path) == version  # what landed before the crash was not written again
    log = site.page(f"{BASE}/round-log")
    assert log is not None
    assert log.content.count("첫 발언 전문") == 1
    assert log.content.count("두 번째 발언 전문") == 1
    assert notices.said == []  # the bot's own write is not mistaken for a person's


async def test_a_restart_resumes_writes_queued_before_it(
    site: Site, make_outbox: OutboxFactory
) -> None:
    stopped = make_outbox(site.backend())
    await stopped.aclose()  # the process died before its writer ran
    await stopped.write(debate(), WriteAgenda())
    await stopped.write(debate(), *logged(turn(1, "첫 발언 전문"), url(1)))
    assert await stopped.pending(7) == 2
    assert site.page(f"{BASE}/agenda") is None

    resumed = make_outbox(site.backend())
    await resumed.start()
    await asyncio.wait_for(resumed.drained(7), WAIT)
    assert site.page(f"{BASE}/agenda") is not None
    log = site.page(f"{BASE}/round-log")
    assert log is not None
    assert log.content.count("첫 발언 전문") == 1


async def test_notes_and_the_people_s_words_join_the_round_log_once(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend(), Notices())
    start = debate()
    await outbox.write(start, *logged(turn(1, "첫 발언"), url(1)))
    await outbox.write(start, LogNote("note-1", "note", "", "비용 근거를 보강하세요"))
    await outbox.write(start, LogNote("people-1", "answer", "carol", "아니요, **운영 인력 없음**"))
    await outbox.write(start, LogNote("people-1", "answer", "carol", "아니요, **운영 인력 없음**"))
    await outbox.write(start, *logged(turn(2, "둘째 발언"), url(2)))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    page = site.page(f"{BASE}/round-log")
    assert page is not None
    text = page.content
    order = [
        text.index(s) for s in ("첫 발언", "비용 근거를 보강하세요", "운영 인력 없음", "둘째 발언")
    ]
    assert order == sorted(order) and text.count("운영 인력 없음") == 1  # once, in order
    assert "사회자의 메모" in text and "carol님의 답" in text


async def test_a_restart_remembers_what_the_bot_wrote(
    site: Site, make_outbox: OutboxFactory
) -> None:
    """What the bot last wrote to each page (recorded with the entry's completion) outlives the
    process: its own page is not taken for a person's, and a person's edit still is."""
    first = make_outbox(site.backend())
    await first.write(debate(working_document="봇 초안 v1"), WriteWorkingDocument(1))
    await first.write(debate(), *logged(turn(1, "첫 발언 전문"), url(1)))
    await asyncio.wait_for(first.drained(7), WAIT)
    await first.aclose()
    log = site.page(f"{BASE}/round-log")
    assert log is not None
    site.edit_as_person(f"{BASE}/round-log", log.content + "\n\n> 사람의 코멘트\n")

    notices = Notices()
    second = make_outbox(site.backend(), notices)
    await second.write(debate(working_document="봇 초안 v2"), WriteWorkingDocument(2))
    await asyncio.wait_for(second.drained(7), WAIT)
    assert notices.keys() == []  # the working document is the bot's own, as it left it
    working = site.page(f"{BASE}/working-document")
    assert working is not None and "봇 초안 v1" not in working.content
    await second.write(debate(), *logged(turn(2, "두 번째 발언 전문"), url(2)))
    await asyncio.wait_for(second.drained(7), WAIT)
    assert notices.keys() == ["wiki.human_edit_kept"]  # the person's comment, seen anew
