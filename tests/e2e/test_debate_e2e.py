"""Scenario 1: Korean chat → card → approval → several rounds → consensus → Conclusion."""

from __future__ import annotations

import pytest

from tests.e2e.harness import World, contract
from tests.fakes.discord_limits import walk
from tests.fakes.discord_world import Json

pytestmark = pytest.mark.e2e

CHAT = [
    ("alice", "캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네"),
    ("carol", "멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이… 어떻게 할까"),
    ("alice", "둘 다 장단점이 있어서 애매하다. 이번 주 안에 결정해야 해"),
]

CLAUDE_1 = "Claude 1: 인스턴스가 하나일 때는 in-process LRU가 단순하고 빠릅니다. " * 8
CLAUDE_2 = "Claude 2: 인스턴스 3개 이상에서 Redis로 옮기는 기준에 동의합니다."
AG_1 = "AG 1: 멀티 인스턴스에서는 캐시 일관성이 문제이므로 Redis가 필요합니다. " * 8
AG_2 = "AG 2: LRU로 시작하고 3개를 넘으면 Redis로 전환하는 데 동의합니다."


def open_button(card: Json) -> str:
    return next(
        c["custom_id"]
        for c in walk(card["components"])
        if c.get("custom_id", "").startswith("debate:open:")
    )


async def test_a_korean_conversation_becomes_a_debate_that_reaches_consensus(world: World) -> None:
    world.anthropic.script_replies(contract(CLAUDE_1), contract(CLAUDE_2, "agree"))
    world.ag.replies = [contract(AG_1), contract(AG_2, "agree")]
    await world.start_bot()
    people = {"alice": world.alice, "carol": world.carol}
    for name, text in CHAT:
        await world.discord.user_message(people[name], text)

    card = await world.wait_for(world.card, "the approval card")
    button = open_button(card)
    refused = await world.discord.click(card["id"], button, world.bob)
    await world.discord.wait_ack(refused, timeout=10)
    assert world.thread_id() is None  # bob is not in the conversation: nothing opened

    await world.discord.click(card["id"], button, world.alice)
    thread = await world.wait_for(world.thread_id, "the debate thread")
    await world.wait_for(lambda: world.status_ended(thread), "the end", timeout=180)

    shown = world.embed_text(thread)
    for opinion in (CLAUDE_1, CLAUDE_2, AG_1, AG_2):
        assert opinion.strip() in shown  # every reply in full in the thread
    root = f"debates/{world.slug()}"
    log = world.wiki.page_at(f"{root}/round-log")
    assert log is not None
    for opinion in (CLAUDE_1, CLAUDE_2, AG_1, AG_2):
        assert opinion.strip() in log.content  # and in the Round-Log
    conclusion = await world.wait_for(
        lambda: world.wiki.page_at(f"{root}/conclusion"), "the Conclusion page"
    )
    assert conclusion.is_published
    assert world.status(thread).startswith("종료 · 합의")
