"""Scenario 5: hostile replies. Malformed JSON, a wiki_action aimed at the Agenda, @everyone
and role mentions, a 20,000-character reply: all posted in full, the refused action
reported, nobody pinged (AG's prompt pings AG's account and nobody else)."""

from __future__ import annotations

import pytest

from tests.e2e.harness import World, contract
from tests.e2e.observe import assert_clean_logs, assert_each_turn_once, has_line, round_log
from tests.fakes.discord_world import Json

pytestmark = pytest.mark.e2e

BROKEN_BLOCK = '```json\n{"opinion": "닫히지 않은 블록", "stance": "partial",\n```'
LONG = "\n".join(
    f"{i:04d} 아주 긴 답변의 한 줄입니다; every character must reach the thread."
    for i in range(330)
)


def hostile(world: World) -> str:
    role = world.discord.world.add_role("운영팀")
    return f"@everyone @here <@&{role['id']}> <@{world.alice['id']}> 지금 모두 보세요!"


def pings(message: Json) -> tuple[bool, list[str], list[str]]:
    users = [str(u["id"]) for u in message["mentions"]]
    return bool(message["mention_everyone"]), users, list(message["mention_roles"])


async def test_hostile_replies_are_shown_whole_refused_and_ping_nobody(world: World) -> None:
    shout = hostile(world)
    claude_broken = f"Claude: 블록이 깨졌습니다. {shout}\n\n{BROKEN_BLOCK}"
    grab = {"page": "Agenda", "mode": "replace", "content": "# 해킹된 안건"}
    ag_grab = f"AG: Agenda를 고치겠습니다. {shout}"
    # Both Claude replies shout: whatever the drawn order, one of them is relayed to AG.
    long = f"{LONG}\n{shout}"
    world.anthropic.script_replies(claude_broken, contract(long, "agree"))
    world.ag.replies = [contract(ag_grab, wiki_action=grab), contract("AG: 동의합니다.", "agree")]
    # Claude writes its broken block as text: the shape asked in the prompt only, since with
    # `--json-schema` the CLI itself refuses a malformed answer (tests/tools/claude).
    await world.start_bot(MAX_ROUNDS="2", CLAUDE_STRUCTURED_OUTPUT="false")
    thread = await world.open_debate()
    await world.wait_end(thread)
    assert assert_each_turn_once(world, thread) == 4

    # Malformed JSON: the whole reply is the opinion, and the thread says why.
    shown = world.embed_text(thread)
    assert claude_broken in shown
    assert has_line(world, thread, "ℹ️ Claude의 응답에 JSON 블록이 없어 전체를 의견으로")
    # 20,000 characters: every one of them in the thread and in the Round-Log.
    assert len(contract(long)) > 20_000
    assert long in shown
    assert long in round_log(world)  # every character, as readable Markdown
    # The action on the Agenda is refused, reported, and the Agenda untouched.
    assert ag_grab in shown
    assert has_line(world, thread, "⚠️ 위키 수정 거부: 안건 페이지는 사회자만")  # named in Korean
    agenda = world.page("agenda")
    assert agenda is not None and "해킹된 안건" not in agenda.content and agenda.versions == 1
    assert world.page("working-document") is None

    # Nobody pinged: the mentions reached plain content (the relay to AG) and pinged no one.
    ag_id = str(world.ag_user["id"])
    ever = world.discord.messages | world.discord.world.deleted  # relay prompts leave the thread
    mine = [m for m in ever.values() if m["author"]["id"] == _bot(world)]
    assert any("@everyone" in str(m.get("content", "")) for m in mine)
    for message in mine:
        if str(message.get("content", "")).startswith(f"<@{ag_id}> [debate"):
            assert pings(message) == (False, [ag_id], [])  # the prompt pings AG's account only
        else:
            assert not world.discord.world.was_pinged(message["id"]), message.get("content")
    assert_clean_logs(world)


def _bot(world: World) -> str:
    return str(world.discord.bot_user["id"])
