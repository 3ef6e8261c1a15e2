"""Scenario 2: Stop pressed while Claude's turn runs: the CLI ends, the debate stops, and a
Conclusion with what was reached so far is written."""

from __future__ import annotations

import pytest

from tests.e2e.harness import World, contract
from tests.e2e.observe import (
    assert_clean_logs,
    assert_each_turn_once,
    has_line,
    round_log,
    turn_footers,
)
from tests.e2e.seen import button_id
from tests.fakes.discord_limits import walk

pytestmark = pytest.mark.e2e

CLAUDE_1 = "Claude 1: 단일 인스턴스라면 in-process LRU가 가장 단순합니다."
AG_1 = "AG 1: 인스턴스가 늘어날 때를 대비해 Redis 전환 기준을 정해 둡시다."
AG_2 = "AG 2: 전환 기준은 인스턴스 3개로 하면 어떨까요?"


async def test_stop_during_a_claude_turn_ends_the_cli_and_concludes(world: World) -> None:
    world.anthropic.script(200, "hold")  # Claude's first call answers, its second hangs
    world.anthropic.script_replies(contract(CLAUDE_1))
    world.ag.replies = [contract(AG_1), contract(AG_2)]
    await world.start_bot(MAX_ROUNDS="2")  # Claude speaks twice: the second call hangs
    thread = await world.open_debate()

    await world.anthropic.wait_messages(2)  # Claude's second turn is under way, held
    assert world.cli_pids(), "the claude CLI should be running its turn"
    status = world.status_message(thread)
    assert status is not None
    reached = max(turn_footers(world, thread))  # what was said before the Stop
    await world.discord.click(status["id"], button_id(status, "stop"), world.alice)

    final = await world.wait_end(thread)
    assert final.startswith("종료 · 중단됨")
    assert world.cli_pids() == []  # the held CLI was ended, nothing of it left
    assert has_line(world, thread, "⏹️ alice님이 토론을 중단했습니다")
    ended = world.status_message(thread)
    assert ended is not None
    assert not [c for c in walk(ended["components"]) if "custom_id" in c]  # Stop is gone
    assert assert_each_turn_once(world, thread) == reached  # the held turn never came

    # The Conclusion is written from what was reached: the moderator read the last turn.
    asks = [r["text"] for r in world.gemini.generate_requests if "Outcome: stopped" in r["text"]]
    assert len(asks) == 1
    assert f"## Turn {reached} · " in asks[0]
    conclusion = world.page("conclusion")
    assert conclusion is not None and "결과: 중단됨" in conclusion.content
    logged = round_log(world)
    assert CLAUDE_1 in logged and AG_1 in logged
    assert_clean_logs(world)
