"""Fixtures for the wiki tests: a fake Wiki.js, a local folder, and an outbox factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from handlers.core.i18n import Strings
from tests.fakes.fake_wikijs import FakeWikiJs
from tests.tools.wiki.support import ControlledSleep, Notices, OutboxFactory, Site
from tools.store.db import Database
from tools.store.wiki_outbox import LandedPages, OutboxQueue
from tools.wiki.backends import WikiBackend
from tools.wiki.outbox import WikiOutbox


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """The store on SQLite, then on PostgreSQL."""
    database = await Database.open(database_target)
    yield database
    await database.close()


@pytest.fixture
async def fake_wikijs() -> AsyncIterator[FakeWikiJs]:
    fake = FakeWikiJs()
    await fake.start()
    yield fake
    await fake.stop()
    assert fake.invalid == [], "the bot sent an operation the Wiki.js schema rejects"


@pytest.fixture(params=["wikijs", "local"])
def site(request: pytest.FixtureRequest, fake_wikijs: FakeWikiJs, tmp_path: Path) -> Site:
    """Each shared behavioural test runs once against Wiki.js and once against LocalWiki."""
    if request.param == "local":
        return Site("local", None, tmp_path / "wiki")
    return Site("wikijs", fake_wikijs, tmp_path / "unused")


@pytest.fixture
async def make_outbox(db: Database) -> AsyncIterator[OutboxFactory]:
    """Build outboxes on the test's database; every one is closed at the end."""
    made: list[WikiOutbox] = []

    def build(
        backend: WikiBackend,
        notices: Notices | None = None,
        sleep: ControlledSleep | None = None,
        **options: object,
    ) -> WikiOutbox:
        outbox = WikiOutbox(
            OutboxQueue(db),
            LandedPages(db),
            backend,
            root="debates",
            strings=Strings("ko"),
            notify=notices if notices is not None else Notices(),
            sleep=sleep if sleep is not None else ControlledSleep(),
            **options,  # type: ignore[arg-type]  # part_limit, backoffs, debate_of
        )
        made.append(outbox)
        return outbox

    yield build
    for outbox in made:
        await outbox.aclose()
