"""Seed 003's rules that live in the briefs and the contract, each held by a test that fails
when the rule is taken out: the Challenger's required alternative and each role's word limit
(docs/seed-rules/adversarial.md lists every rule)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from handlers.core.events import ProposalApproved
from handlers.core.formats.adversarial.rules import RECONCILER_ID
from handlers.core.model import AG, CLAUDE, Phase
from tests.handlers.adversarial_script import (
    adversarial_rig,
    challenger,
    debater,
    intake,
    role_of,
    tasks,
)
from tests.handlers.conftest import ALICE, Rig, proposal

# The seed's "You MUST propose a concrete alternative — pure negation is not allowed", as the
# Challenger's brief says it in each language.
ALTERNATIVE_RULE = {
    "en": "You MUST propose a concrete alternative — pure negation is not allowed",
    "ko": "반드시 구체적인 대안을 내세요 — 단순한 부정은 허용되지 않습니다",
    "pt-BR": "Você DEVE propor uma alternativa concreta — pura negação não é permitida",
}
# "Word limits per role: 200–500 words": Advocate and Challenger 400, Reconciler 500 (in the
# debate's language), the probes 200 and the Validator 250 (the moderator's English briefs).
WORD_LIMITS = {
    "en": {
        "advocate": "Max 400 words",
        "challenger": "Max 400 words",
        "reconciler": "Max 500 words",
    },
    "ko": {"advocate": "최대 400단어", "challenger": "최대 400단어", "reconciler": "최대 500단어"},
    "pt-BR": {
        "advocate": "No máximo 400 palavras",
        "challenger": "No máximo 400 palavras",
        "reconciler": "No máximo 500 palavras",
    },
}
TASK_LIMITS = {"probe-cost": "Max 200 words", "probe-alternatives": "Max 200 words"}
TASK_LIMITS |= {"validator": "Max 250 words"}


async def _run(rig: Rig) -> int:
    await rig.start()
    debate = await rig.h.propose(proposal())
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    return debate.id


def _prompts(rig: Rig) -> dict[str, list[str]]:
    """Every role brief the debaters received, by role, in order."""
    found: dict[str, list[str]] = {}
    for seat in (AG, CLAUDE, RECONCILER_ID):
        for request in debater(rig, seat).requests:
            found.setdefault(role_of(request.prompt), []).append(request.prompt)
    return found


@pytest.mark.parametrize("lang", sorted(WORD_LIMITS))
async def test_each_role_s_brief_carries_its_word_limit(tmp_path: Path, lang: str) -> None:
    rig = adversarial_rig(tmp_path / "limits.sqlite3", lang)
    tasks(rig, intake(4, high_stakes=True))  # FULL: every role and check runs
    try:
        await _run(rig)
        prompts = _prompts(rig)
        for role, limit in WORD_LIMITS[lang].items():
            assert [limit in p for p in prompts[role]] == [True], role
        asked = {r.task: r.prompt for r in rig.moderator.task_requests}
        for task, limit in TASK_LIMITS.items():
            assert limit in asked[task], task
        assert ALTERNATIVE_RULE[lang] in prompts["challenger"][0]
    finally:
        await rig.stop()


@pytest.mark.parametrize(
    "without",
    [
        pytest.param(lambda text: text.replace("[ALTERNATIVE]", "[NOTE]"), id="no-alternative"),
        pytest.param(
            lambda text: text.replace(
                "[ALTERNATIVE] LRU per replica with a 5 s TTL and pub/sub invalidation",
                "[ALTERNATIVE] none",
            ),
            id="none-as-alternative",
        ),
    ],
)
async def test_a_challenger_without_a_concrete_alternative_is_asked_for_one(
    tmp_path: Path, without: object
) -> None:
    """Pure negation is banned: an answer with no [ALTERNATIVE], or "none" as one, gets the
    one repair request naming it; the answer given then stands."""
    rig = adversarial_rig(tmp_path / "alternative.sqlite3", "en")
    assert callable(without)
    negation = without(challenger("en"))
    for seat in (AG, CLAUDE):
        debater(rig, seat).answers["challenger"] = [negation, challenger("en")]
    try:
        debate_id = await _run(rig)
        asked = _prompts(rig)["challenger"]
        assert len(asked) == 2 and "[ALTERNATIVE]" in asked[1] and negation in asked[1]
        assert "missing required parts" in asked[1]
        assert "adversarial.repair" in rig.room.notice_keys()
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
    finally:
        await rig.stop()
