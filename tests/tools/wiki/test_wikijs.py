"""WikiJsWiki against the fake Wiki.js: downtime, restarts, published state, the key check."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import pytest

from bot.doctor import Status, all_checks, check_wiki, internal
from bot.root.engine import build_wiki_backend
from bot.settings import Settings
from handlers.core.effects import WriteAgenda, WriteWorkingDocument
from tests.effects import logged
from tests.fakes.fake_wikijs import FULL_KEY, REVOKED_KEY, FakeWikiJs
from tests.tools.wiki.support import WAIT, ControlledSleep, Notices, OutboxFactory, debate, turn
from tests.tools.wiki.test_behaviour import BASE, url
from tools.wiki.wikijs import WikiJsWiki


def assert_log_holds(fake: FakeWikiJs, texts: list[str]) -> None:
    """Every text in the Round-Log exactly once, in order."""
    page = fake.page_at(f"{BASE}/round-log")
    assert page is not None
    assert all(page.content.count(text) == 1 for text in texts)
    spots = [page.content.index(text) for text in texts]
    assert spots == sorted(spots)


async def test_writes_made_while_the_wiki_is_down_land_later_in_order_once(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    notices, sleep = Notices(), ControlledSleep(open_=False)
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), notices, sleep)
    fake_wikijs.failing = True  # HTTP 500 to everything
    texts = [f"다운 중에 나온 발언 {n}" for n in range(1, 4)]
    await outbox.write(debate(), WriteAgenda())
    for n, text in enumerate(texts, 1):
        await outbox.write(debate(), *logged(turn(n, text), url(n)))
    await outbox.write(debate(working_document="다운 중 초안"), WriteWorkingDocument(2))
    await sleep.until(1)
    assert notices.said == []  # one failed attempt is not news yet
    await sleep.allow(1)
    await sleep.until(2)
    assert notices.said == [(7, "wiki.delayed", {"count": "5"})]

    await fake_wikijs.refuse_connections()  # now the port is closed altogether
    fake_wikijs.failing = False
    await sleep.allow(2)
    await sleep.until(4)
    assert fake_wikijs.pages == {}
    assert notices.keys() == ["wiki.delayed"]  # told once

    await fake_wikijs.accept_connections()
    await sleep.open()
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert notices.keys() == ["wiki.delayed", "wiki.caught_up"]
    assert notices.said[1][2] == {"count": "5"}
    assert sleep.waits[:4] == [2.0, 4.0, 8.0, 16.0]  # backoff between attempts
    assert_log_holds(fake_wikijs, texts)
    document = fake_wikijs.page_at(f"{BASE}/working-document")
    assert document is not None
    assert document.content == "다운 중 초안"
    assert [r.fields for r in fake_wikijs.writes()].count(("pages.create",)) == 3
    assert await outbox.pending(7) == 0


async def test_writes_kept_during_downtime_survive_a_restart(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    await fake_wikijs.refuse_connections()
    before, sleep = Notices(), ControlledSleep(open_=False)
    first = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), before, sleep)
    texts = ["재시작 전 발언 1", "재시작 전 발언 2"]
    await first.write(debate(), WriteAgenda())
    for n, text in enumerate(texts, 1):
        await first.write(debate(), *logged(turn(n, text), url(n)))
    await sleep.until(1)
    await sleep.allow(1)
    await sleep.until(2)
    assert before.keys() == ["wiki.delayed"]
    await first.aclose()
    assert await first.pending(7) == 3

    await fake_wikijs.accept_connections()
    after = Notices()
    second = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), after)
    await second.start()
    await asyncio.wait_for(second.drained(7), WAIT)
    assert after.keys() == ["wiki.caught_up"]  # the delay was announced before the restart
    assert fake_wikijs.page_at(f"{BASE}/agenda") is not None
    assert_log_holds(fake_wikijs, texts)
    assert await second.pending(7) == 0


async def test_updates_keep_the_page_published_with_its_scripts_and_tags(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY))
    path = f"{BASE}/working-document"
    await outbox.write(debate(working_document="v1"), WriteWorkingDocument(1))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    page = fake_wikijs.page_at(path)
    assert page is not None
    assert (page.locale, page.editor, page.is_published) == ("en", "markdown", True)
    page.script_css = ".debate { color: green }"  # set by a person in the page's properties
    page.tags.append("아키텍처")

    await outbox.write(
        replace(debate(), moderation=replace(debate().moderation, working_document="v2")),
        WriteWorkingDocument(2),
    )
    await asyncio.wait_for(outbox.drained(7), WAIT)
    page = fake_wikijs.page_at(path)
    assert page is not None
    assert page.content == "v2"
    assert page.is_published  # an update without isPublished would have unpublished it
    assert page.script_css == ".debate { color: green }"
    assert set(page.tags) == {"debate-room", "아키텍처"}
    assert page.path == path  # never moved
    update = fake_wikijs.writes()[-1]
    assert "path" not in update.variables
    assert "locale" not in update.variables


async def test_a_create_that_already_landed_becomes_an_update(fake_wikijs: FakeWikiJs) -> None:
    wiki = WikiJsWiki(fake_wikijs.url, FULL_KEY)
    path = f"{BASE}/agenda"
    await wiki.write(path, "제목", "처음", None)
    stored = await wiki.write(path, "제목", "다시", None)  # a read said "no page", yet there is one
    await wiki.aclose()
    assert stored.content == "다시"
    assert [p.path for p in fake_wikijs.pages.values()] == [path]
    page = fake_wikijs.page_at(path)
    assert page is not None
    assert page.content == "다시"


def wiki_settings(
    tmp_path: Path, url: str | None, key: str | None = None, public: str | None = None
) -> Settings:
    return Settings(
        _env_file=None,
        WIKIJS_URL=url,
        WIKIJS_API_KEY=key,
        LOCAL_WIKI_DIR=tmp_path / "wiki",
        WIKI_PUBLIC_URL=public,
    )


@pytest.mark.parametrize(
    ("key", "api_enabled", "status", "words"),
    [
        (FULL_KEY, True, Status.OK, "full-access"),
        (FULL_KEY, False, Status.FAILING, "API is disabled"),
        (REVOKED_KEY, True, Status.FAILING, "invalid or was revoked"),
        ("a-key-that-became-guest", True, Status.FAILING, "Guest"),
    ],
)
async def test_the_key_check_gives_one_clear_line(
    fake_wikijs: FakeWikiJs,
    tmp_path: Path,
    key: str,
    api_enabled: bool,
    status: Status,
    words: str,
) -> None:
    fake_wikijs.api_enabled = api_enabled
    public = "https://wiki.example.org"  # the fake is on 127.0.0.1, which people cannot open
    check = await check_wiki(wiki_settings(tmp_path, fake_wikijs.url, key, public))
    assert check.status is status
    assert words in check.detail
    assert "\n" not in check.line()
    assert key not in check.line()  # the key never reaches the output
    assert check_wiki in all_checks()


async def test_the_key_check_names_an_unreachable_wiki_and_accepts_a_local_one(
    fake_wikijs: FakeWikiJs, tmp_path: Path
) -> None:
    await fake_wikijs.refuse_connections()
    down = await check_wiki(wiki_settings(tmp_path, fake_wikijs.url, FULL_KEY))
    assert down.status is Status.FAILING
    assert "cannot reach" in down.detail
    local = await check_wiki(wiki_settings(tmp_path, None))
    assert local.status is Status.OK
    assert str(tmp_path / "wiki") in local.detail


async def test_a_write_the_wiki_can_never_take_is_given_up_and_the_rest_lands(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    notices = Notices()
    outbox = make_outbox(WikiJsWiki(fake_wikijs.url, FULL_KEY), notices, ControlledSleep())
    huge = "가" * 2_000_000  # over Wiki.js's 5 MB body limit once encoded as JSON
    await outbox.write(debate(working_document=huge), WriteWorkingDocument(1))
    await outbox.write(debate(), *logged(turn(2, "그다음 발언"), url(2)))
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert notices.keys() == ["wiki.write_refused"]
    assert notices.said[0][2]["page"] == "작업 문서"
    assert fake_wikijs.page_at(f"{BASE}/working-document") is None
    assert_log_holds(fake_wikijs, ["그다음 발언"])  # the queue went on after the refusal
    assert await outbox.pending(7) == 0


async def test_links_start_with_the_public_url_while_the_api_stays_on_wikijs_url(
    fake_wikijs: FakeWikiJs, make_outbox: OutboxFactory
) -> None:
    public = "https://wiki.example.org/"
    config = Settings(
        _env_file=None, WIKIJS_URL=fake_wikijs.url, WIKIJS_API_KEY=FULL_KEY, WIKI_PUBLIC_URL=public
    )
    outbox = make_outbox(build_wiki_backend(config))
    await outbox.write(debate(), WriteAgenda())
    await asyncio.wait_for(outbox.drained(7), WAIT)
    assert fake_wikijs.page_at(f"{BASE}/agenda") is not None  # written through WIKIJS_URL
    link = outbox.page_url(debate(), "agenda")
    assert link == f"https://wiki.example.org/{quote(BASE)}/agenda"
    assert fake_wikijs.url not in link
    plain = WikiJsWiki(fake_wikijs.url, FULL_KEY)
    assert plain.url(f"{BASE}/agenda").startswith(fake_wikijs.url)  # unset: the API's address


async def test_doctor_warns_of_links_nobody_can_open_without_a_public_address(
    fake_wikijs: FakeWikiJs, tmp_path: Path
) -> None:
    """The fake answers on 127.0.0.1, as `http://wiki:3000` in Docker: without WIKI_PUBLIC_URL
    the links posted to Discord would be dead, and doctor says which setting fixes it."""
    dead = await check_wiki(wiki_settings(tmp_path, fake_wikijs.url, FULL_KEY))
    assert dead.status is Status.WARNING and "set WIKI_PUBLIC_URL" in dead.detail, dead.detail
    public = wiki_settings(tmp_path, fake_wikijs.url, FULL_KEY, "https://wiki.example.org")
    fine = await check_wiki(public)
    assert fine.status is Status.OK, fine.detail


@pytest.mark.parametrize(
    ("url", "shut_in"),
    [
        ("http://wiki:3000", True),
        ("http://localhost:3000", True),
        ("http://10.0.0.5", True),
        ("http://192.168.1.20:3000", True),
        ("http://wiki.lan", True),
        ("https://wiki.example.org", False),
        ("http://93.184.216.34", False),
    ],
)
def test_which_wiki_addresses_people_elsewhere_cannot_open(url: str, shut_in: bool) -> None:
    assert internal(url) is shut_in
