"""A format's own pages (`Wiki.write_page`) through the outbox, on Wiki.js and the local wiki:
written below the debate's slug with their title, a repeat written once, a person's edit kept."""

from __future__ import annotations

import asyncio

from tests.tools.wiki.support import WAIT, Notices, OutboxFactory, Site, debate

BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"
PATH = f"{BASE}/debate-result"
TITLE = "캐시 — Debate Result"


async def test_a_format_page_is_written_once_and_a_person_s_edit_is_kept(
    site: Site, make_outbox: OutboxFactory
) -> None:
    notices = Notices()
    outbox = make_outbox(site.backend(), notices)
    start = debate()
    for _ in range(2):  # the second is a repeat after a crash
        await outbox.write_page(start, "debate-result", TITLE, "## Debate Result\n\nv1")
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    seen = site.page(PATH)
    assert seen is not None and seen.title == TITLE
    assert seen.content.count("## Debate Result") == 1 and "v1" in seen.content
    assert await outbox.pending(start.id) == 0

    site.edit_as_person(PATH, f"{seen.content}\n\n사람의 메모")
    await outbox.write_page(start, "debate-result", TITLE, "## Debate Result\n\nv2")
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    again = site.page(PATH)
    assert again is not None and "사람의 메모" in again.content and "v2" in again.content
    assert notices.keys() == ["wiki.human_edit_kept"]
    assert notices.said[0][2]["page"] == "debate-result"
