"""The ledger's diagram on Wiki.js, through the real backend against the fake: uploaded once as
an asset into folders like the page's, shown by the front page at the path Wiki.js serves it
from, overwritten (not doubled) by a repeat after a crash, retried when the upload fails,
given up when Wiki.js refuses it for good."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from urllib.parse import quote

import aiohttp
import pytest
from aiohttp import web

from handlers.core.formats.ledger.rules import DIAGRAM, FRONT, LEDGER_FORMAT
from handlers.core.model import Debate
from tests.effects import paged
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs
from tests.fakes.fake_wikijs_assets import Upload
from tests.tools.wiki.support import (
    WAIT,
    ControlledSleep,
    CrashAfterWrite,
    Notices,
    OutboxFactory,
    debate,
)
from tools.wiki.outbox import WikiOutbox
from tools.wiki.wikijs import WikiJsWiki

BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"
ASSET = f"{BASE}/concepts.svg"
LINK = "/" + quote(ASSET, safe="/")  # the slugs are lower-case already: served as stored
LEDGER = {"agreed": ["LRU로 충분하다"], "amendments": ["Redis는 측정 후"], "open": ["운영 주체"]}


def ledger_debate() -> Debate:
    """A ledger debate whose ledger is written: its front page and diagram can be rendered."""
    return replace(
        debate(),
        setup=replace(debate().setup, format="ledger"),
        moderation=replace(debate().moderation, outputs=(("ledger", json.dumps(LEDGER)),)),
    )


async def write_front(outbox: WikiOutbox, ledger: Debate) -> str:
    """Queue the front page and its diagram, as the ledger format does; the diagram's SVG."""
    for page in (FRONT, DIAGRAM):
        title, markdown = LEDGER_FORMAT.render_page(ledger, page, ())
        await outbox.write(ledger, *paged(page, title, markdown))
    return LEDGER_FORMAT.render_page(ledger, DIAGRAM, ())[1]


async def fetch(url: str) -> tuple[int, bytes, str]:
    """What a reader's browser gets at `url` (no key: as a guest)."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.read(), response.content_type


def folder_paths(fake: FakeWikiJs) -> list[str]:
    return sorted(fake.assets.path_of(folder_id) for folder_id in fake.assets.folders)


def folder_creates(fake: FakeWikiJs) -> int:
    return sum(1 for r in fake.requests if r.fields == ("assets.createFolder",))


async def test_the_front_page_shows_the_diagram_uploaded_once(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY))
    ledger = ledger_debate()
    svg = await write_front(outbox, ledger)
    await write_front(outbox, ledger)  # the same queued again (a repeat after a crash)
    await asyncio.wait_for(outbox.drained(7), WAIT)

    assert svg.startswith("<svg")
    assert list(fake_wikijs.assets.files) == [ASSET]
    assert fake_wikijs.assets.files[ASSET].content == svg.encode()  # byte for byte
    assert [r.status for r in fake_wikijs.uploads()] == [200]
    assert folder_paths(fake_wikijs) == ["debates", BASE]
    front = fake_wikijs.page_at(f"{BASE}/front-page")
    assert front is not None
    assert f"![diagram]({LINK})" in front.content and "](concepts.svg)" not in front.content
    assert fake_wikijs.page_at(f"{BASE}/concepts-svg") is None  # no page of the XML source
    # What a reader's browser loads for the front page's image, and the thread's link to it.
    assert await fetch(f"{fake_wikijs.url}{LINK}") == (200, svg.encode(), "image/svg+xml")
    assert outbox.page_url(ledger, DIAGRAM) == f"{fake_wikijs.url}{LINK}"
    assert all(r.variables.get("path") != ASSET for r in fake_wikijs.requests)  # never read


async def test_a_repeat_after_a_crash_overwrites_the_asset(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    first = make_outbox(CrashAfterWrite(WikiJsWiki(fake_wikijs.url, FULL_KEY), ASSET))
    svg = await write_front(first, ledger_debate())
    await asyncio.wait_for(first.drained(7), WAIT)  # died right after the upload landed
    assert await first.pending(7) == 1
    await first.aclose()

    notices = Notices()
    second = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), notices)  # no folder ids kept
    await second.start()
    await asyncio.wait_for(second.drained(7), WAIT)
    assert await second.pending(7) == 0
    assert list(fake_wikijs.assets.files) == [ASSET]  # the same asset, written over
    assert fake_wikijs.assets.files[ASSET].uploads == 2
    assert fake_wikijs.assets.files[ASSET].content == svg.encode()
    assert folder_paths(fake_wikijs) == ["debates", BASE]  # found again, not made twice
    assert folder_creates(fake_wikijs) == 2
    assert notices.said == []


async def test_a_failed_upload_is_tried_again_and_lands(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    notices, sleep = Notices(), ControlledSleep()
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), notices, sleep)
    fake_wikijs.assets.failing_uploads = 1
    svg = await write_front(outbox, ledger_debate())
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert [r.status for r in fake_wikijs.uploads()] == [500, 200]
    assert sleep.waits == [2.0]  # the outbox's backoff
    assert fake_wikijs.assets.files[ASSET].content == svg.encode()
    assert notices.said == []  # one failed attempt is not news
    assert await outbox.pending(7) == 0


async def test_a_diagram_wiki_js_refuses_for_good_is_given_up_and_the_rest_lands(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    notices, sleep = Notices(), ControlledSleep()
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), notices, sleep)
    fake_wikijs.assets.max_file_size = 100  # uploads.maxFileSize, set low by the admin
    ledger = ledger_debate()
    await write_front(outbox, ledger)
    title, markdown = LEDGER_FORMAT.render_page(ledger, "conclusion", ())
    await outbox.write(ledger, *paged("conclusion", title, markdown))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert [r.status for r in fake_wikijs.uploads()] == [500]  # "File too large": not retried
    assert sleep.waits == []
    assert notices.keys() == ["wiki.write_refused"]
    assert notices.said[0][2]["page"] == "concepts.svg"
    assert fake_wikijs.assets.files == {}
    assert fake_wikijs.page_at(f"{BASE}/conclusion") is not None  # the queue went on
    assert await outbox.pending(7) == 0


async def test_an_upload_into_a_deleted_folder_is_made_again(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    sleep = ControlledSleep()
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), Notices(), sleep)
    await write_front(outbox, ledger_debate())
    await asyncio.wait_for(outbox.drained(7), WAIT)
    fake_wikijs.assets.delete_folder(BASE)  # a person tidies the asset manager up
    newer = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'
    await outbox.write(ledger_debate(), *paged(DIAGRAM, "diagram", newer))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    # The folders are looked up at each upload: the deleted one is made again, at once.
    assert [r.status for r in fake_wikijs.uploads()] == [200, 200]
    assert sleep.waits == []
    assert fake_wikijs.assets.files[ASSET].content == newer.encode()
    assert folder_paths(fake_wikijs) == ["debates", BASE]


async def test_an_upload_answered_ok_but_not_served_is_tried_again(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    sleep = ControlledSleep()
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), Notices(), sleep)
    store, dropped = fake_wikijs.assets.upload, []

    def upload(upload: Upload, user: str) -> web.Response:
        if not dropped:  # Wiki.js only logs a failure to save the file, and answers `ok`
            dropped.append(upload)
            return web.Response(text="ok")
        return store(upload, user)

    monkeypatch.setattr(fake_wikijs.assets, "upload", upload)
    svg = await write_front(outbox, ledger_debate())
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert [r.status for r in fake_wikijs.uploads()] == [200, 200]
    assert sleep.waits == [2.0]  # the fetch after the first found nothing served
    assert fake_wikijs.assets.files[ASSET].content == svg.encode()
