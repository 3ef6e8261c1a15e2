"""Scenario: the people's poll outlives a `kill -9`. One round ends in a stalemate (Claude
still disagrees): the minority report and the native poll are posted and people vote; the bot
is killed while the poll is open; the time passes while it is down (its stored end time moves
into the past); the restarted bot closes the poll at once, reads the votes, and the Conclusion
records the people's decision. Nothing is posted twice."""

from __future__ import annotations

import sqlite3

import pytest

from handlers.core.i18n import Strings
from tests.e2e.harness import World, contract
from tests.e2e.observe import assert_clean_logs, has_line
from tests.fakes.discord_limits import visible_text
from tests.fakes.discord_world import Json

KO = Strings("ko")
pytestmark = pytest.mark.e2e

CLAUDE_1 = "Claude 1: 멀티 인스턴스라면 지금 바로 Redis로 가야 일관성이 지켜집니다."
AG_1 = "AG 1: 인스턴스가 하나인 지금은 in-process LRU로 충분합니다."
SETTINGS = {"MAX_ROUNDS": "1", "BUDGET_PAUSE": "true", "POLL_HOURS": "1"}


def timer(world: World) -> str | None:
    """The poll's stored end time, once the bot has committed it."""
    with sqlite3.connect(world.tmp / "bot.sqlite3") as db:
        row = db.execute("SELECT ends_at FROM polls").fetchone()
    return None if row is None else str(row[0])


def polls(world: World, thread: str) -> list[Json]:
    return [m for m in world.bot_messages(thread) if "poll" in m]


async def test_a_poll_open_at_a_kill_closes_on_its_stored_timer_after_the_restart(
    world: World,
) -> None:
    world.anthropic.script_replies(contract(CLAUDE_1, "disagree"))
    world.ag.replies = [contract(AG_1)]
    await world.start_bot(**SETTINGS)
    thread = await world.open_debate()
    (poll,) = await world.wait_for(lambda: polls(world, thread), "the people's poll")
    assert [a["poll_media"]["text"] for a in poll["poll"]["answers"]][1].startswith("Claude: ")
    await world.wait_for(lambda: has_line(world, thread, "🗳️"), "the poll's note")
    await world.discord.vote(poll["id"], world.alice, 2)
    await world.discord.vote(poll["id"], world.carol, 2)
    await world.discord.vote(poll["id"], world.bob, 1)
    await world.wait_for(lambda: timer(world), "the poll's end time in the database")
    await world.crash()  # kill -9 while the poll is open

    with sqlite3.connect(world.tmp / "bot.sqlite3") as db:  # its hour passes while down
        db.execute("UPDATE polls SET ends_at = '2000-01-01T00:00:00+00:00'")

    await world.start_bot(**SETTINGS)
    await world.wait_end(thread)
    answer = poll["poll"]["answers"][1]["poll_media"]["text"]
    decided = KO("poll.decided", answer=answer, votes=2, total=3)
    assert has_line(world, thread, decided)
    conclusion = world.page("conclusion")
    assert conclusion is not None
    assert KO("poll.decision_title") in conclusion.content
    assert KO("poll.total", total=3) in conclusion.content

    # once each: the poll, the report, the decision; the bot ended the poll once
    assert len(polls(world, thread)) == 1
    reports = [
        m
        for m in world.bot_messages(thread)
        if any(KO("poll.report_title") in (e.get("description") or "") for e in m["embeds"])
    ]
    assert len(reports) == 1
    assert [visible_text(m) for m in world.bot_messages(thread)].count(decided) == 1
    expired = [c for c in world.discord.calls if c.path.endswith("/expire")]
    assert len(expired) == 1
    assert_clean_logs(world)
