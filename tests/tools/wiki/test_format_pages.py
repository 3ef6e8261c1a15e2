"""A format's pages (`Wiki.write_page`) through the outbox, on Wiki.js and the local wiki:
written below the debate's slug with their title, a repeat written once, a person's edit kept;
turn pages below the debate's folder, the words a format leaves as locale keys filled in, and
the diagram saved beside the pages."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from handlers.core.formats.ledger.rules import LEDGER_FORMAT
from handlers.core.model import AG
from tests.effects import paged
from tests.tools.wiki.support import WAIT, Notices, OutboxFactory, Site, debate, turn

BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"
SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10" fill="#fff"/></svg>'
PATH = f"{BASE}/debate-result"
TITLE = "캐시 — Debate Result"


async def test_a_format_page_is_written_once_and_a_person_s_edit_is_kept(
    site: Site, make_outbox: OutboxFactory
) -> None:
    notices = Notices()
    outbox = make_outbox(site.backend(), notices)
    start = debate()
    for _ in range(2):  # the second is a repeat after a crash
        await outbox.write(start, *paged("debate-result", TITLE, "## Debate Result\n\nv1"))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    seen = site.page(PATH)
    assert seen is not None and seen.title == TITLE
    assert seen.content.count("## Debate Result") == 1 and "v1" in seen.content
    assert await outbox.pending(start.id) == 0

    site.edit_as_person(PATH, f"{seen.content}\n\n사람의 메모")
    await outbox.write(start, *paged("debate-result", TITLE, "## Debate Result\n\nv2"))
    await asyncio.wait_for(outbox.drained(start.id), WAIT)
    again = site.page(PATH)
    assert again is not None and "사람의 메모" in again.content and "v2" in again.content
    assert notices.keys() == ["wiki.human_edit_kept"]
    assert notices.said[0][2]["page"] == "debate-result"


async def test_a_turn_gets_its_own_page_verbatim(site: Site, make_outbox: OutboxFactory) -> None:
    outbox = make_outbox(site.backend())
    said = turn(1, '캐시는 LRU로 충분합니다.\n```json\n{"opinion": "x"}\n```', seat=AG)
    ledger = replace(
        debate(),
        setup=replace(debate().setup, format="ledger"),
        floor=replace(debate().floor, log=((1, AG),)),
    )
    title, markdown = LEDGER_FORMAT.render_page(ledger, "turns/01-ag", (said,))
    await outbox.write(ledger, *paged("turns/01-ag", title, markdown))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    page = site.page(f"{BASE}/turns/01-ag")
    assert page is not None
    assert said.text in page.content and "라운드 1" in page.content and "⟦" not in page.content


async def test_a_debater_s_own_key_in_a_turn_page_is_written_as_it_is(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend())
    said = turn(1, "⟦ledger.round⟧ 은 제 표기입니다 ⟦⟦", seat=AG)
    ledger = replace(
        debate(),
        setup=replace(debate().setup, format="ledger"),
        floor=replace(debate().floor, log=((1, AG),)),
    )
    title, markdown = LEDGER_FORMAT.render_page(ledger, "turns/01-ag", (said,))
    await outbox.write(ledger, *paged("turns/01-ag", title, markdown))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    page = site.page(f"{BASE}/turns/01-ag")
    assert page is not None and page.title.endswith("— 턴 1 · AG")
    assert f"\n{said.text}\n" in page.content and "— 라운드 1, #1" in page.content


async def test_the_diagram_is_saved_beside_the_pages(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend())
    await outbox.write(debate(), *paged("concepts.svg", "diagram", SVG))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    # The file itself: in the local folder, or a Wiki.js asset (no page of its source).
    assert site.asset(f"{BASE}/concepts.svg") == SVG.encode()
    assert site.page(f"{BASE}/concepts-svg") is None


async def test_the_diagram_is_written_as_it_is_over_a_changed_file(
    site: Site, make_outbox: OutboxFactory
) -> None:
    notices = Notices()
    outbox = make_outbox(site.backend(), notices)
    path = f"{BASE}/concepts.svg"
    await outbox.write(debate(), *paged("concepts.svg", "diagram", SVG))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    site.replace_asset_as_person(path, b"<svg><!-- a person's --></svg>")
    newer = SVG.replace("#fff", "#000")
    await outbox.write(debate(), *paged("concepts.svg", "diagram", newer))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    # Not merged with the file there (a diagram is the bot's alone): exactly the new one.
    assert site.asset(path) == newer.encode()
    assert notices.said == []
