"""Seed 000's briefs, word for word where the seed fixes them: each member is told who it is
(`Você é <nome> [<papel>]`) and the round's required structure, with the seed's limits (an
argument of at most three paragraphs and 400-800 words, at least two risks and two metrics;
round 2 citing and refuting by name). Listed in docs/seed-rules/boardroom.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from handlers.core.model import AG
from tests.handlers.test_boardroom_flow import board, finish, open_board

# What each language's brief must say, round by round, as the seed's structure has it.
ROUND1 = {
    "pt-BR": (
        "Você é AG [architect]",
        "1. VOTO: SIM | NÃO | CONDICIONAL",
        "máx 3 parágrafos, 400-800 palavras",
        "Riscos da sua posição (mín 2",
        "Condições em que sua posição funciona / falha",
        "Métricas para avaliar a decisão (mín 2",
    ),
    "en": (
        "You are AG [architect]",
        "1. VOTE: YES | NO | CONDITIONAL",
        "at most 3 paragraphs, 400-800 words",
        "Risks of your own position (at least 2",
        "works / fails",
        "(at least 2, one per line",
    ),
    "ko": (
        "AG [architect]",
        "1. 투표: 찬성 | 반대 | 조건부",
        "최대 3문단, 400-800단어",
        "최소 2개",
    ),
}
ROUND2 = {
    "pt-BR": (
        "1. VOTO FINAL: SIM | NÃO | CONDICIONAL (pode mudar)",
        "2. Se mudou de voto: o que convenceu",
        "Maior concordância: com quem e por quê (cite argumento)",
        "Maior discordância: com quem e por quê (refute argumento)",
        "5. Insight novo",
        "Condição de consenso: o que precisaria ser verdade para todos concordarem",
    ),
    "en": (
        "1. FINAL VOTE: YES | NO | CONDITIONAL (you may change it)",
        "(cite the argument)",
        "(refute the argument)",
        "Condition for consensus",
    ),
    "ko": ("1. 최종 투표", "(논거를 인용)", "(논거를 반박)", "6. 합의의 조건"),
}


@pytest.mark.parametrize("language", ["pt-BR", "en", "ko"])
async def test_each_round_s_brief_carries_the_seed_s_structure_and_limits(
    tmp_path: Path, language: str
) -> None:
    rig = board(tmp_path / "briefs.sqlite3", language)
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        first, second = (r.prompt for r in rig.debaters[AG].requests[:2])
        missing = [part for part in ROUND1[language] if part not in first]
        assert not missing, missing
        missing = [part for part in ROUND2[language] if part not in second]
        assert not missing, missing
    finally:
        await rig.stop()


SYNTHESIS = {
    "pt-BR": ("2-3 maiores tensões", '"guardrails":', '"recommendation":', '"insight":'),
    "en": ("2-3 main tensions", '"guardrails":', '"recommendation":', '"insight":'),
    "ko": ("주요 쟁점 2-3개", '"guardrails":', '"recommendation":', '"insight":'),
}


@pytest.mark.parametrize("language", ["pt-BR", "en", "ko"])
async def test_the_synthesis_is_asked_for_two_or_three_tensions_and_guarded_advice(
    tmp_path: Path, language: str
) -> None:
    rig = board(tmp_path / "synthesis.sqlite3", language)
    await rig.start()
    try:
        await finish(rig, await open_board(rig))
        (asked,) = [r.prompt for r in rig.moderator.task_requests if r.task == "synthesis"]
        missing = [part for part in SYNTHESIS[language] if part not in asked]
        assert not missing, missing
    finally:
        await rig.stop()
