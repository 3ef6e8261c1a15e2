"""A format's pages through the outbox: turn pages below the debate's folder, the words a
format leaves as locale keys filled in, and the diagram saved beside the pages."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from handlers.formats.ledger import LEDGER_FORMAT
from handlers.model import AG
from tests.tools.wiki.support import WAIT, OutboxFactory, Site, debate, turn

BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"
SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10" fill="#fff"/></svg>'


async def test_a_turn_gets_its_own_page_verbatim(site: Site, make_outbox: OutboxFactory) -> None:
    outbox = make_outbox(site.backend())
    said = turn(1, '캐시는 LRU로 충분합니다.\n```json\n{"opinion": "x"}\n```', seat=AG)
    ledger = replace(debate(), format="ledger", log=((1, AG),))
    title, markdown = LEDGER_FORMAT.render_page(ledger, "turns/01-ag", (said,))
    await outbox.write_page(ledger, "turns/01-ag", title, markdown)
    await asyncio.wait_for(outbox.drained(7), WAIT)
    page = site.page(f"{BASE}/turns/01-ag")
    assert page is not None
    assert said.text in page.content and "라운드 1" in page.content and "⟦" not in page.content


async def test_the_diagram_is_saved_beside_the_pages(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend())
    await outbox.write_page(debate(), "concepts.svg", "diagram", SVG)
    await asyncio.wait_for(outbox.drained(7), WAIT)
    if site.fake is None:  # a local folder holds the SVG file itself
        assert (site.folder / BASE / "concepts.svg").read_text(encoding="utf-8") == SVG
    else:  # Wiki.js holds pages only: the source is kept on a page beside them
        page = site.page(f"{BASE}/concepts-svg")
        assert page is not None and SVG in page.content
