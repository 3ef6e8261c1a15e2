"""Two databases sharing one wiki (the console's default database and the bot's, or a database
deleted to start over): both number debates from 1, yet each debate keeps its own folder."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from handlers.core.effects import WriteAgenda, WriteConclusion
from handlers.core.i18n import Strings
from handlers.core.model import Conclusion
from tests.doubles import draft
from tests.effects import logged
from tests.tools.wiki.support import WAIT, Notices, Site, debate, turn
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.wiki_outbox import LandedPages, OutboxQueue
from tools.wiki.outbox import WikiOutbox

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


async def _first_debate(site: Site, file: Path, context: str) -> tuple[str, Notices]:
    """Debate 1 of a fresh database on the shared wiki: its Agenda and one Round-Log entry;
    the folder it wrote, and what its thread was told."""
    db = await Database.open(str(file))
    notices = Notices()
    outbox = WikiOutbox(
        OutboxQueue(db),
        LandedPages(db),
        site.backend(),
        root="debates",
        strings=Strings("ko"),
        notify=notices,
        sleep=_no_wait,
    )
    try:
        proposal = replace(debate().proposal, context=context)
        made = await SqliteStore(db).create(draft(proposal, 3, NOW), timedelta(hours=1), ())
        assert made.id == 1  # each database counts from 1
        started = replace(made, setup=replace(made.setup, started_at=NOW))
        await outbox.write(started, WriteAgenda())
        await outbox.write(started, *logged(turn(1, f"{context}: 첫 발언", debate_id=1), ""))
        await asyncio.wait_for(outbox.drained(made.id), WAIT)
        return outbox.path_of(started, "agenda").rsplit("/", 1)[0], notices
    finally:
        await outbox.aclose()
        await db.close()


async def _no_wait(seconds: float) -> None:
    del seconds


async def test_two_databases_on_one_wiki_keep_separate_folders(site: Site, tmp_path: Path) -> None:
    bot_folder, bot_told = await _first_debate(site, tmp_path / "bot.sqlite3", "봇의 대화")
    console_folder, console_told = await _first_debate(
        site, tmp_path / "console.sqlite3", "콘솔의 대화"
    )
    assert bot_folder != console_folder
    assert bot_folder.startswith("debates/1-") and console_folder.startswith("debates/1-")
    for folder, mine, theirs in (
        (bot_folder, "봇의 대화", "콘솔의 대화"),
        (console_folder, "콘솔의 대화", "봇의 대화"),
    ):
        for page in ("agenda", "round-log"):
            seen = site.page(f"{folder}/{page}")
            assert seen is not None and mine in seen.content and theirs not in seen.content
    # Nobody edited a page: no thread is told that someone did.
    assert "wiki.human_edit_kept" not in bot_told.keys() + console_told.keys()


async def test_a_folder_of_another_debate_is_never_written_into(site: Site, tmp_path: Path) -> None:
    """Should two debates meet at one path anyway (the same id and key), the later one's
    writes are refused, said once per page in its thread, and the earlier one's pages stay."""
    theirs = replace(
        debate(debate_id=1),
        setup=replace(debate(debate_id=1).setup, wiki_key="a1b2c3", started_at=NOW),
    )
    ours = replace(theirs, proposal=replace(theirs.proposal, context="콘솔의 대화"))
    told: list[Notices] = []
    for name, which in (("bot", theirs), ("console", ours)):
        db = await Database.open(str(tmp_path / f"{name}.sqlite3"))
        told.append(Notices())
        outbox = WikiOutbox(
            OutboxQueue(db),
            LandedPages(db),
            site.backend(),
            root="debates",
            strings=Strings("ko"),
            notify=told[-1],
            sleep=_no_wait,
        )
        try:
            await outbox.write(which, WriteAgenda())
            await outbox.write(which, *logged(turn(1, f"{name}: 첫 발언", debate_id=1), ""))
            await outbox.write(which, WriteConclusion(Conclusion(decision=f"{name}의 결정")))
            await asyncio.wait_for(outbox.drained(1), WAIT)
            folder = outbox.path_of(which, "agenda").rsplit("/", 1)[0]
        finally:
            await outbox.aclose()
            await db.close()
    for page in ("agenda", "round-log", "conclusion"):
        seen = site.page(f"{folder}/{page}")
        assert seen is not None and "콘솔" not in seen.content, page
    assert told[1].keys() == ["wiki.write_refused"] * 3
    assert all(
        params["reason"] == Strings("ko")("wiki.folder_taken") for _, _, params in told[1].said
    )
