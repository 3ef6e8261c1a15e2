"""Each front's one error handler, through the real discord.py client against the fake
Discord: an error nobody expected, in a slash command or in a click, is logged as an error and
answered with a short private apology, not left without a reply."""

from __future__ import annotations

from typing import Any, NoReturn

import pytest

from handlers.core.events import Event
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.slash_support import MANAGE_GUILD, registered, run
from tests.bot.discord.support import chat, click, wait_card
from tests.fakes.discord_fixtures import ErrorCollector
from tests.fakes.discord_interactions import FLAG_EPHEMERAL
from tests.fakes.discord_limits import visible_text
from tools.store.debates import SqliteStore


class Bug(Exception):
    """An error no handler expects."""


def logged_bug(own_errors: ErrorCollector, front: str) -> None:
    """The bug was logged once, as an error with its traceback; then it is not the rig's."""
    [record] = own_errors.records
    assert record.getMessage() == f"a {front} failed"
    assert record.exc_info is not None and isinstance(record.exc_info[1], Bug)
    own_errors.records.clear()


async def test_an_unexpected_error_in_a_command_gets_a_private_reply(
    rig: BotRig, people: People, own_errors: ErrorCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_args: Any) -> NoReturn:
        raise Bug("a bug in the store")

    await rig.start()
    await registered(rig)
    monkeypatch.setattr(SqliteStore, "load_in", broken)
    said = await run(rig, people.bob, "status", permissions=MANAGE_GUILD, debate=1)
    assert said == KO("front.failed")  # `run` checked it is private and pings nobody
    logged_bug(own_errors, "command")
    # a known error is still answered in its own words
    monkeypatch.undo()
    said = await run(rig, people.bob, "status", permissions=MANAGE_GUILD, debate=999)
    assert said == KO("admin.no_debate", id=999)


async def test_an_unexpected_error_in_a_click_gets_a_private_reply(
    rig: BotRig, people: People, own_errors: ErrorCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(_debate_id: int, _event: Event) -> NoReturn:
        raise Bug("a bug in the engine")

    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    monkeypatch.setattr(rig.handler, "submit", broken)
    kind, _ = await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    assert kind == 6  # acknowledged first; the apology follows, privately
    await rig.fake.wait_for_message(
        lambda m: visible_text(m) == KO("front.failed") and bool(m["flags"] & FLAG_EPHEMERAL)
    )
    logged_bug(own_errors, "click")


async def test_an_unexpected_error_in_the_command_tree_s_check_gets_a_private_reply(
    rig: BotRig, people: People, own_errors: ErrorCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_args: Any) -> NoReturn:
        raise Bug("a bug in the gateway claims")

    bot = await rig.start()
    await registered(rig)
    monkeypatch.setattr(bot.front, "handles", broken)
    said = await run(rig, people.bob, "list", permissions=MANAGE_GUILD)
    assert said == KO("front.failed")
    logged_bug(own_errors, "command")
