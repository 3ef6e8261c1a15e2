"""Scenario 4: faults. Each says one clear line in the thread, and the debate still ends."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.e2e.harness import World
from tests.e2e.observe import (
    assert_clean_logs,
    assert_delivered,
    assert_each_turn_once,
    has_line,
    lines,
    round_log_entries,
    turn_footers,
)
from tests.e2e.scripts import AG, CLAUDE, SETTINGS, script
from tests.fakes.fake_gemini import PER_DAY

pytestmark = pytest.mark.e2e


async def test_claude_answering_429_is_retried(world: World) -> None:
    script(world)
    world.anthropic.script(429)  # Claude's first call is refused; the retry gets through
    await world.start_bot(**SETTINGS)
    thread = await world.open_debate()
    await world.wait_end(thread)

    assert has_line(world, thread, "⚠️ Claude 응답 지연(요청 한도 초과, 429).")
    assert [r.status for r in world.anthropic.message_requests()] == [429, 200, 200]
    assert assert_each_turn_once(world, thread) == 4
    assert_delivered(world, thread, CLAUDE + AG)
    assert_clean_logs(world)


async def test_gemini_out_of_daily_quota_falls_back_to_rules(world: World) -> None:
    script(world)
    spent = {"kind": "error", "status": 429, "retry_delay": None, "quota_id": PER_DAY}
    world.gemini.push({"kind": "auto"}, spent)  # detection answers; the first judgement is 429
    await world.start_bot(**SETTINGS)
    thread = await world.open_debate()
    await world.wait_end(thread)

    requests = world.gemini.generate_requests
    assert len(requests) == 2, "after a spent day, no request is sent until tomorrow"
    assert has_line(world, thread, "ℹ️ 사회자가 규칙 모드로 전환했습니다")
    conclusion = world.page("conclusion")
    assert conclusion is not None
    assert "이 결론은 규칙 기반 사회자가 기계적으로 정리했습니다." in conclusion.content
    assert assert_each_turn_once(world, thread) == 4
    assert_delivered(world, thread, CLAUDE + AG)
    assert_clean_logs(world)


async def test_wiki_down_for_several_turns_catches_up(world: World) -> None:
    script(world)
    await world.start_bot(**SETTINGS, RETRY_WAIT_SCALE="0.01")  # short waits, not a busy loop
    thread = await world.open_debate()
    await world.wait_for(lambda: world.page("agenda"), "the Agenda page")
    world.wiki.failing = True

    delayed = "⚠️ 위키에 연결할 수 없습니다."
    await world.wait_for(lambda: len(turn_footers(world, thread)) >= 2, "two turns while down")
    await world.wait_for(lambda: has_line(world, thread, delayed), "the delayed line")
    assert not round_log_entries(world)  # nothing of the turns has landed
    world.wiki.failing = False

    await world.wait_end(thread)
    await world.wait_for(lambda: has_line(world, thread, "✅ 위키가 복구되어"), "caught up")
    assert sum(line.startswith(delayed) for line in lines(world, thread)) == 1  # said once
    assert assert_each_turn_once(world, thread) == 4
    assert_delivered(world, thread, CLAUDE + AG)
    assert_clean_logs(world)


async def test_ag_silent_for_one_turn_is_asked_again(world: World) -> None:
    script(world)
    world.ag.silent_turns = {1, 2}  # AG's first-round turn (1 or 2) goes unanswered once
    await world.start_bot(**SETTINGS, AG_TIMEOUT_SECONDS="2")
    thread = await world.open_debate()
    await world.wait_end(thread)

    assert has_line(world, thread, "⚠️ AG 응답 지연(시간 초과).")
    asked = Counter(world.ag.prompted_turns())
    assert sorted(asked.values()) == [1, 2], f"one turn asked twice: {asked}"
    assert assert_each_turn_once(world, thread) == 4
    assert all(text in world.embed_text(thread) for text in CLAUDE + AG)
    assert_clean_logs(world)
