"""Adversarial debates on the real engine and SQLite store, with doubles for the outside:
each tier in Korean and English (the result page in the debate's language), the intake's stops
and caps, repairs, crashes and Stop."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest

from handlers.core.events import ProposalApproved, UserAnswered
from handlers.core.formats.adversarial.rules import RECONCILER_ID
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Outcome, Phase, Turn
from tests.handlers.adversarial_script import (
    WORDS,
    adversarial_rig,
    advocate,
    debater,
    intake,
    reconciler,
    role_of,
    tasks,
)
from tests.handlers.conftest import ALICE, Rig, proposal

# The result page as a reader of each language sees it.
SAID = {
    "en": {
        "title": "캐시 계층 선택 — Redis vs in-process LRU — Debate Result",
        "full": "**Tier:** full",
        "standard": "**Tier:** standard",
        "validation": "### Validation\nPASS-WITH-CAVEATS",
        "confirmed": "### Confidence: CONFIRMED",
        "validator": "- Validator: E3 was not weighed",
        "cost": f"- top-tier: Reconciler ({RECONCILER_ID}-model)",
        "summary": "Tier: FULL · Intake: debate-ready · Confidence: CONFIRMED",
        "lite": ("- Advocate: LITE tier", "- Validator: LITE tier"),
        "no_validation": "### Validation",
        "no_probes": "- Consistency probes: STANDARD tier",
    },
    "ko": {
        "title": "캐시 계층 선택 — Redis vs in-process LRU — 토론 결과",
        "full": "**단계:** full",
        "standard": "**단계:** standard",
        "validation": "### 검증\nPASS-WITH-CAVEATS",
        "confirmed": "### 확신도: CONFIRMED",
        "validator": "- 검증자: E3 was not weighed",
        "cost": f"- 최상위 등급: 조정자 ({RECONCILER_ID}-model)",
        "summary": "단계: FULL · 사전 감사: debate-ready · 확신도: CONFIRMED",
        "lite": ("- 옹호자: LITE 단계", "- 검증자: LITE 단계"),
        "no_validation": "### 검증",
        "no_probes": "- 일관성 검사: STANDARD 단계",
    },
}


# The intake audit of `intake(4, high_stakes=True)`: as the roles read it (the seed's English,
# whatever the debate's language), and as the room shows it to the people.
EVIDENCE = [
    "  - E1 | fact 1: replica cache lag 2 s | against",
    "  - E2 | fact 2: replica cache lag 4 s | mixed",
    "  - E3 | fact 3: replica cache lag 6 s | context",
    "  - E4 | fact 4: replica cache lag 8 s | supports",
]
FOR_ROLES = "\n".join(
    [
        "- Proposition: Adopt Redis as the shared cache layer",
        "- Decision focus: Redis vs in-process LRU",
        "- Evidence inventory: 4",
        *EVIDENCE,
        "- Opposition explicitly present: yes",
        "- Known gaps: none",
        "- Optional state: none",
        "- Tier: FULL (high-stakes or hard to reverse)",
        "- Intake status: debate-ready",
    ]
)
NOTICE = {
    "en": FOR_ROLES,
    "ko": "\n".join(
        [
            "- 명제: Adopt Redis as the shared cache layer",
            "- 결정의 초점: Redis vs in-process LRU",
            "- 증거 목록: 4",
            *EVIDENCE,
            "- 반대 근거 명시: 예",
            "- 알려진 공백: none",  # the audit's own word, verbatim
            "- 부가 상태: 없음",
            "- 단계: FULL (위험이 크거나 되돌리기 어려움)",
            "- 사전 감사 상태: debate-ready",
        ]
    ),
}
ENGLISH_LABELS = (
    "Proposition",
    "Decision focus",
    "Evidence inventory",
    "Opposition",
    "Known gaps",
    "Optional state",
    "Tier:",
    "Intake status",
    "high-stakes",
    "yes",
)


def _notice(rig: Rig) -> str:
    """The audit notice as the room says it, in the debate's language."""
    (params,) = [p for _, k, p in rig.room.notices if k == "adversarial.audit"]
    return fill_keys(params["block"], Strings(rig.language))


async def _run(rig: Rig, topic: str | None = None) -> int:
    await rig.start()
    debate = await rig.h.propose(proposal() if topic is None else proposal(topic))
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    return debate.id


async def _turns(rig: Rig, debate_id: int) -> list[Turn]:
    return list(await rig.h._turns.last_turns(debate_id, 100))


def _page(rig: Rig) -> str:
    """The result page's title and content, filled in the debate's language as the wiki does."""
    pages = [content for key, _, content in rig.wiki.writes if ":page:debate-result" in key]
    assert len(pages) == 1
    return fill_keys(pages[0], Strings(rig.language))


def _roles(rig: Rig) -> dict[str, str]:
    """Which participant was asked as which role."""
    return {role_of(r.prompt): seat for seat, d in rig.debaters.items() for r in d.requests}


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_a_full_debate_runs_every_role_and_writes_the_result(
    tmp_path: Path, lang: str
) -> None:
    rig = adversarial_rig(tmp_path / "full.sqlite3", lang)
    tasks(rig, intake(4, high_stakes=True))
    try:
        debate_id = await _run(rig)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED
        turns = await _turns(rig, debate_id)
        roles = _roles(rig)
        assert {roles["advocate"], roles["challenger"]} == {AG, CLAUDE}
        assert roles["reconciler"] == RECONCILER_ID
        assert [t.seat for t in turns] == [roles["advocate"], roles["challenger"], RECONCILER_ID]
        performed = [r.task for r in rig.moderator.task_requests]
        assert performed[0] == "intake" and performed[-1] == "validator"
        assert sorted(performed[1:3]) == ["probe-alternatives", "probe-cost"]
        adv, chal, rec = turns
        challenger_prompt = debater(rig, roles["challenger"]).requests[0].prompt
        reconciler_prompt = debater(rig, RECONCILER_ID).requests[0].prompt
        assert adv.text in challenger_prompt  # the Challenger sees the Advocate's case
        assert adv.text in reconciler_prompt and chal.text in reconciler_prompt
        assert "Probe 1 (cost-first): [STABLE] yes" in reconciler_prompt
        assert ("할 일" if lang == "ko" else "YOUR TASK") in challenger_prompt
        validator_prompt = rig.moderator.task_requests[-1].prompt
        assert rec.text in validator_prompt
        assert "E1 | fact 1" in debater(rig, roles["advocate"]).requests[0].prompt
        for seat in (AG, CLAUDE, RECONCILER_ID):  # the roles' audit: the seed's, unchanged
            assert FOR_ROLES in debater(rig, seat).requests[0].prompt
        assert _notice(rig) == NOTICE[lang]  # the people's: in their language
        if lang == "ko":
            assert [w for w in ENGLISH_LABELS if w in _notice(rig)] == []
        keys = rig.room.notice_keys()
        assert "adversarial.tier_auto" in keys
        assert {"adversarial.probe_1", "adversarial.probe_2"} <= set(keys)
        assert "adversarial.validator" in keys
        tier = next(p for _, k, p in rig.room.notices if k == "adversarial.tier_auto")
        assert tier["tier"] == "FULL" and "⟦adversarial.reason.high_stakes⟧" in tier["reasons"]
        page, said = _page(rig), SAID[lang]
        assert page.startswith(said["title"] + "\n") and said["full"] in page
        assert said["validation"] in page and said["validator"] in page
        assert said["confirmed"] in page and said["cost"] in page
        assert WORDS[lang]["decision"] in page and rec.text in page
        assert len(rig.room.summaries) == 1 and "**MODIFY**" in rig.room.summaries[0]
        assert said["summary"] in fill_keys(rig.room.summaries[0], Strings(lang))
        assert all(count == 1 for count in rig.room.turn_posts.values())
        # The verdict is the Conclusion: no moderator's Conclusion follows or overrules it.
        assert rig.room.conclusions == [] and debate.ending.outcome is Outcome.VERDICT
        assert rig.moderator.conclusions == 0
        assert not [k for k, _, _ in rig.wiki.writes if k.endswith(":conclusion")]
    finally:
        await rig.stop()


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_a_lite_debate_skips_the_advocate_and_says_why(tmp_path: Path, lang: str) -> None:
    rig = adversarial_rig(tmp_path / "lite.sqlite3", lang)
    tasks(rig, intake(2, binary=True))
    try:
        debate_id = await _run(rig)
        turns = await _turns(rig, debate_id)
        roles = _roles(rig)
        assert "advocate" not in roles and len(turns) == 2
        assert [r.task for r in rig.moderator.task_requests] == ["intake"]
        prompt = debater(rig, roles["challenger"]).requests[0].prompt
        assert ("암묵적으로" if lang == "ko" else "implicitly argued FOR") in prompt
        reconciler_prompt = debater(rig, RECONCILER_ID).requests[0].prompt
        assert "ADVOCATE'S CASE" not in reconciler_prompt
        page, said = _page(rig), SAID[lang]
        assert all(line in page for line in said["lite"])
        assert said["no_validation"] not in page
    finally:
        await rig.stop()


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_a_standard_debate_runs_three_roles_without_probes(tmp_path: Path, lang: str) -> None:
    rig = adversarial_rig(tmp_path / "standard.sqlite3", lang)
    try:
        debate_id = await _run(rig)
        turns = await _turns(rig, debate_id)
        assert len(turns) == 3 and [r.task for r in rig.moderator.task_requests] == ["intake"]
        assert turns[0].text in debater(rig, _roles(rig)["challenger"]).requests[0].prompt
        page, said = _page(rig), SAID[lang]
        assert said["standard"] in page and said["no_probes"] in page
        tier = next(p for _, k, p in rig.room.notices if k == "adversarial.tier_auto")
        assert tier["tier"] == "STANDARD"
    finally:
        await rig.stop()


async def test_context_insufficient_stops_before_any_role_until_evidence_comes(
    tmp_path: Path,
) -> None:
    rig = adversarial_rig(tmp_path / "insufficient.sqlite3")
    rig.moderator.task_outputs["intake"] = [intake(0, request="Which numbers?"), intake(3)]
    try:
        debate_id = await _run(rig)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.AWAITING_USER
        assert "adversarial.insufficient" in rig.room.notice_keys()
        assert rig.room.questions[-1].text == "Which numbers?"
        assert not any(d.requests for d in rig.debaters.values())  # no role ran
        await rig.h.submit(debate_id, UserAnswered(ALICE, "E1 | p95 840 ms | supports"))
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        assert "p95 840 ms" in rig.moderator.task_requests[1].prompt  # re-audited with it
    finally:
        await rig.stop()


async def test_context_thin_is_carried_into_every_brief_and_caps_confidence(
    tmp_path: Path,
) -> None:
    rig = adversarial_rig(tmp_path / "thin.sqlite3", "en")
    tasks(rig, intake(3, gaps=None))
    try:
        await _run(rig)
        assert "adversarial.thin" in rig.room.notice_keys()
        for seat in (AG, CLAUDE, RECONCILER_ID):
            for request in rig.debaters[seat].requests:
                assert "INTAKE FLAG: CONTEXT-THIN: KNOWN_GAPS omitted" in request.prompt
        page = _page(rig)
        assert "### Confidence: SPECULATIVE" in page and "CONTEXT-THIN intake caps" in page
    finally:
        await rig.stop()


async def test_divergent_probes_cap_confidence(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "probes.sqlite3", "en")
    tasks(rig, intake(4, high_stakes=True), stable=(False, False))
    try:
        await _run(rig)
        page = _page(rig)
        assert "### Confidence: SPECULATIVE" in page and "0 of 2 stable" in page
    finally:
        await rig.stop()


async def test_an_uncited_argument_lands_in_rejected_arguments(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "uncited.sqlite3", "en")
    for seat in (AG, CLAUDE):
        debater(rig, seat).answers["advocate"] = [advocate("en", uncited=True)]
    try:
        await _run(rig)
        page = _page(rig)
        rejected = page.split("### Rejected Arguments", 1)[1].split("###", 1)[0]
        assert "Advocate evidence 3: Everyone feels Redis is better" in rejected
        assert "cites no inventory item" in rejected and "evidence 1" not in rejected
    finally:
        await rig.stop()


async def test_a_missing_prefix_gets_one_repair_request(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "repair.sqlite3", "en")
    broken = advocate("en", counter=False)
    for seat in (AG, CLAUDE):
        debater(rig, seat).answers["advocate"] = [broken, broken]
    try:
        debate_id = await _run(rig)
        seat = _roles(rig)["advocate"]
        asked = debater(rig, seat).requests
        assert len(asked) == 2 and "missing required parts" in asked[1].prompt
        assert "[COUNTER]" in asked[1].prompt and broken in asked[1].prompt
        assert "adversarial.repair" in rig.room.notice_keys()
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED  # taken as it stands
        assert len(await _turns(rig, debate_id)) == 4
    finally:
        await rig.stop()


async def test_without_the_moderator_model_the_rules_stand_in(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "rules.sqlite3", "en")
    rig.moderator.task_outputs.clear()  # every task: ModeratorUnavailable
    try:
        debate_id = await _run(rig)
        assert (await rig.h.get(debate_id)).phase is Phase.AWAITING_USER  # no inventory lines
        await rig.h.submit(
            debate_id, UserAnswered(ALICE, "E1 | 3 replicas | supports\nE2 | lag 4 s | against")
        )
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        page = _page(rig)
        assert "E2 | lag 4 s | against" in page and "Known gaps: unknown" in page
        assert "### Confidence: SPECULATIVE" in page
    finally:
        await rig.stop()


async def test_without_the_moderator_model_the_light_roles_say_they_did_not_run(
    tmp_path: Path,
) -> None:
    rig = adversarial_rig(tmp_path / "rules_full.sqlite3", "en")
    rig.moderator.task_outputs.clear()  # every task: ModeratorUnavailable
    try:
        debate_id = await _run(rig)
        answer = "--full\nE1 | 3 replicas | supports\nE2 | lag 4 s | against"
        await rig.h.submit(debate_id, UserAnswered(ALICE, answer))
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        page = _page(rig)
        assert "[FRAMING] cost-first\n[STRUCTURAL] stress=none" in page
        assert "[STABLE] no — not assessed" in page
        assert "[RESULT] NOT-RUN\n[CAVEATS] the Validator could not run" in page
        reconciler = debater(rig, RECONCILER_ID).requests[-1].prompt
        assert "Probe 2 (alternatives-first): [STABLE] no — not assessed — not assessed" in (
            reconciler
        )
    finally:
        await rig.stop()


async def test_the_people_s_constraints_reach_every_role_verbatim(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "constraints.sqlite3", "en")
    tasks(rig, intake(4, high_stakes=True))
    rule = "no new managed services before Q3 (ops is two people)"
    card = replace(proposal(), context=f"alice: Redis or LRU?\ncarol: CONSTRAINTS: {rule}")
    await rig.start()
    try:
        debate = await rig.h.propose(card)
        assert debate is not None
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        await rig.h.submit(debate.id, ProposalApproved(ALICE))
        await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
        prompts = [r.prompt for d in rig.debaters.values() for r in d.requests]
        prompts += [r.prompt for r in rig.moderator.task_requests if r.task != "intake"]
        assert len(prompts) == 6  # three roles, two probes, the Validator
        assert all("CONSTRAINTS (from the people" in p and rule in p for p in prompts)
    finally:
        await rig.stop()


KEY = "⟦adversarial.result.none⟧"  # a real key, as a role or the moderator may write it


async def test_keys_written_by_the_roles_and_the_audit_reach_the_page_and_summary_verbatim(
    tmp_path: Path,
) -> None:
    rig = adversarial_rig(tmp_path / "keys.sqlite3", "en")
    audit = json.loads(intake(3))
    audit["proposition"] = f"Adopt {KEY} Redis"
    audit["evidence"][0]["item"] = f"lag ⟦⟦ {KEY}"
    tasks(rig, json.dumps(audit))
    ruling = reconciler().replace("[THESIS] ", f"[THESIS] keep {KEY} ")
    uncited = advocate("en", uncited=True).replace("Everyone feels", f"Everyone {KEY} feels")
    debater(rig, RECONCILER_ID).answers["reconciler"] = [ruling]
    for seat in (AG, CLAUDE):
        debater(rig, seat).answers["advocate"] = [uncited]
    try:
        await _run(rig, f"Cache {KEY}")
        page, t = _page(rig), Strings("en")
        assert page.startswith(f"Cache {KEY} — {t('adversarial.result.title')}\n")
        assert f"**{t('adversarial.result.proposition')}:** Adopt {KEY} Redis" in page
        assert f"  - E1 | lag ⟦⟦ {KEY} | against" in page
        assert f"MODIFY\nkeep {KEY} Adopt Redis" in page
        assert f"Everyone {KEY} feels Redis is better (cites no inventory item)" in page
        assert f"\n{ruling}\n" in page and f"\n{uncited}\n" in page  # whole, as written
        summary = fill_keys(rig.room.summaries[0], t)
        verdict = t("adversarial.result.verdict")
        assert summary.startswith(f"⚖️ {verdict}: **MODIFY** — keep {KEY} Adopt Redis")
        notice = _notice(rig)
        assert f"- Proposition: Adopt {KEY} Redis\n" in notice
        assert f"  - E1 | lag ⟦⟦ {KEY} | against\n" in notice
    finally:
        await rig.stop()
