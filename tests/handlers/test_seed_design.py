"""Rules of the user's design v3 (seed 002) that live in the engine, each held here so that
removing it fails a test: the "📝 Wiki 수정됨" report (Phase 2 ②) and the relay's
"오류 확인 + 개선점 지적" instruction (principle 1)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.settings import Settings
from handlers.core.events import ProposalApproved
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, DEFAULT_ROSTER, Backend
from handlers.debate_handler import DebateHandler
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.doubles import other, reply

# The seed's instruction in each language, written out here (not read from the prompt file)
# so that a prompt which loses it fails.
CHECK_AND_IMPROVE = {
    "ko": "오류가 있는지 확인하고 개선점을 지적해 주세요",
    "en": "check the reply above for errors and point out improvements",
    "pt-BR": "verifique a resposta acima em busca de erros e aponte melhorias",
}


async def _run(rig: Rig) -> int:
    await rig.start()
    debate = await rig.h.propose(proposal())
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 20)
    return debate.id


async def test_seed_002_a_wiki_action_is_applied_and_reported_with_its_link(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "w.sqlite3", max_rounds=1)
    first = random.Random(rig.seed).choice((AG, CLAUDE))
    action = {"page": "Working-Document", "mode": "replace", "content": "# 초안\n\n- LRU"}
    rig.debaters[first].enqueue(reply("초안을 씁니다.", wiki_action=action))
    try:
        debate_id = await _run(rig)
        reported = [p for d, k, p in rig.room.notices if d == debate_id and k == "wiki.updated"]
        assert len(reported) == 1
        assert reported[0]["url"] == f"https://wiki.test/debates/{debate_id}/working-document"
        said = Strings("ko")("wiki.updated", **reported[0])
        assert said.startswith("📝 ") and "수정됨" in said and reported[0]["url"] in said
        assert any("working" in key for key in rig.wiki.keys)  # and applied
    finally:
        await rig.stop()


@pytest.mark.parametrize("language", sorted(CHECK_AND_IMPROVE))
async def test_seed_002_the_relay_asks_to_check_for_errors_and_point_out_improvements(
    tmp_path: Path, language: str
) -> None:
    rig = Rig(tmp_path / f"r-{language}.sqlite3", max_rounds=1, language=language)
    first = random.Random(rig.seed).choice((AG, CLAUDE))
    said = "LRU로 충분합니다: 인스턴스가 하나뿐입니다."
    rig.debaters[first].enqueue(reply(said))
    try:
        await _run(rig)
        [relay] = [r for r in rig.debaters[other(first)].requests if r.turn == 2]
        # The reply verbatim, then the moderator's addition (never a summary in its place).
        assert said in relay.prompt
        instruction = relay.prompt.index(CHECK_AND_IMPROVE[language])
        assert instruction > relay.prompt.index(said)
    finally:
        await rig.stop()


def test_seed_002_two_ais_under_a_gemini_flash_moderator_in_the_modules_it_names() -> None:
    # "두 AI (AG + Claude Code)가 사회자(Gemini Flash)의 중재 하에"
    assert [(m.id, m.backend) for m in DEFAULT_ROSTER] == [
        (AG, Backend.AG_RELAY),
        (CLAUDE, Backend.CLAUDE_CLI),
    ]
    assert "flash" in Settings.model_fields["GEMINI_MODEL"].default
    # "handlers/debate_handler.py", "prompts/debate_moderator.md", "prompts/debate_participant.md"
    assert DebateHandler.__module__ == "handlers.debate_handler"
    root = Path(__file__).resolve().parents[2] / "prompts"
    assert (root / "debate_moderator.md").is_file() and (root / "debate_participant.md").is_file()
