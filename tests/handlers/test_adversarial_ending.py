"""How an adversarial debate ends and what its output carries, on the real engine and SQLite
store: the Reconciler's verdict is the Conclusion, the people's typed KNOWN_GAPS reach the
audit, each role runs on its seed tier's model, and the `DEBATE:` line is logged."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from handlers.core.events import ProposalApproved
from handlers.core.formats.adversarial.rules import RECONCILER_ID, AdversarialFormat
from handlers.core.formats.adversarial.seats import RECONCILER_MODEL, TIER_MODELS
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Outcome, Proposal
from tests.handlers.adversarial_script import adversarial_rig, debater, intake, tasks
from tests.handlers.conftest import ALICE, Rig, proposal

TIERS = ((TIER_MODELS["mid-tier"], "sonnet"), (TIER_MODELS["top-tier"], "opus"))
# The people's context manifest in the seed's envelope, typed in the conversation.
ENVELOPE = "\n".join(
    [
        "alice: EVIDENCE_INVENTORY:",
        "- E1 | p95 840 ms on /search | supports",
        "- E2 | 3 replicas each hold a cache | against",
        "KNOWN_GAPS:",
        "- no load test at 10x traffic",
        "- the cache hit rate is unmeasured",
        "OPTIONAL_STATE:",
        "- none",
    ]
)


async def _run(rig: Rig, given: Proposal | None = None) -> int:
    await rig.start()
    debate = await rig.h.propose(given or proposal())
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    return debate.id


def _page(rig: Rig) -> str:
    [page] = [c for key, _, c in rig.wiki.writes if key.endswith(":page:debate-result")]
    return fill_keys(page, Strings(rig.language))


@pytest.mark.parametrize("tier", ["standard", "full"])
async def test_the_reconciler_s_verdict_is_the_conclusion(tmp_path: Path, tier: str) -> None:
    rig = adversarial_rig(tmp_path / "verdict.sqlite3", "en")
    tasks(rig, intake(4, high_stakes=tier == "full"))
    try:
        debate_id = await _run(rig)
        debate = await rig.h.get(debate_id)
        assert debate.ending.outcome is Outcome.VERDICT  # not "consensus" against a MODIFY verdict
        assert rig.moderator.conclusions == 0 and rig.room.conclusions == []
        [closing] = rig.room.summaries
        assert fill_keys(closing, Strings("en")).startswith("⚖️ Reconciler's Verdict: **MODIFY**")
        assert not [key for key, _, _ in rig.wiki.writes if key.endswith(":conclusion")]
        performed = [r.task for r in rig.moderator.task_requests]
        assert performed[-1] == ("validator" if tier == "full" else "intake")  # then the end
    finally:
        await rig.stop()


async def test_typed_known_gaps_are_read_when_the_audit_omits_them(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "gaps.sqlite3", "en")
    tasks(rig, intake(3, gaps=None))  # the moderator's audit says nothing of the gaps
    try:
        await _run(rig, replace(proposal(), context=ENVELOPE))
        assert "adversarial.thin" not in rig.room.notice_keys()
        gaps = "- Known gaps: no load test at 10x traffic; the cache hit rate is unmeasured"
        for seat in (AG, CLAUDE, RECONCILER_ID):
            assert gaps in debater(rig, seat).requests[0].prompt
        assert "CONTEXT-THIN" not in _page(rig)
    finally:
        await rig.stop()


async def test_the_rules_audit_reads_the_envelope_to_its_last_gap(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "rules.sqlite3", "en")
    rig.moderator.task_outputs.clear()  # no moderator model: the rules audit stands in
    try:
        await _run(rig, replace(proposal(), context=ENVELOPE))
        page = _page(rig)
        assert "- Known gaps: no load test at 10x traffic; the cache hit rate is unmeasured" in page
        assert "  - E2 | 3 replicas each hold a cache | against" in page
        assert "**Intake status:** debate-ready" in page
    finally:
        await rig.stop()


@pytest.mark.parametrize(("tier", "reconciler"), [("standard", "sonnet"), ("full", "opus")])
async def test_each_claude_role_runs_on_its_tier_s_model(
    tmp_path: Path, tier: str, reconciler: str
) -> None:
    rig = adversarial_rig(tmp_path / "tiers.sqlite3", "en", options=TIERS)
    tasks(rig, intake(4, high_stakes=tier == "full"))
    try:
        await _run(rig)
        assert [r.model for r in debater(rig, CLAUDE).requests] == ["sonnet"]  # mid-tier
        assert [r.model for r in debater(rig, AG).requests] == [""]  # AG keeps its own
        assert [r.model for r in debater(rig, RECONCILER_ID).requests] == [reconciler]
        page = _page(rig)
        assert "Model tiers used:\n- mid-tier: " in page
        # each role's line names the model its turn reported, as its turn's header does
        assert " (Claude, claude-model)" in page and " (AG, ag-model)" in page
        on_top = f"- top-tier: Reconciler ({RECONCILER_ID}-model)"
        assert (on_top in page) is (tier == "full")
        checks = "- lightweight: Probe 1, Probe 2, Validator (moderator model)"
        assert (checks in page) is (tier == "full")
    finally:
        await rig.stop()


async def test_the_reconciler_s_own_model_wins_over_its_tier(tmp_path: Path) -> None:
    own = (*TIERS, (RECONCILER_MODEL, "claude-own"))
    rig = adversarial_rig(tmp_path / "own.sqlite3", "en", options=own)
    tasks(rig, intake(4, high_stakes=True))
    try:
        await _run(rig)
        assert [r.model for r in debater(rig, RECONCILER_ID).requests] == ["claude-own"]
    finally:
        await rig.stop()


async def test_the_debate_line_is_logged_with_the_seed_s_fields(tmp_path: Path) -> None:
    rig = adversarial_rig(tmp_path / "line.sqlite3", "en")
    tasks(rig, intake(4, high_stakes=True))
    try:
        await _run(rig)
        [logged] = [c for key, _, c in rig.wiki.writes if key.endswith(":round-log:debate-line")]
        line = (
            "DEBATE: tier=full, proposition=Adopt Redis as the shared cache layer, evidence=4, "
            "roles=[Advocate, Challenger, Probe 1, Probe 2, Reconciler, Validator]"
        )
        assert logged == f"note||{line}"
        assert f"- {line}" in _page(rig)
    finally:
        await rig.stop()


async def test_an_inventory_over_the_cap_is_cut_for_the_roles_and_the_people_are_told(
    tmp_path: Path,
) -> None:
    rig = adversarial_rig(tmp_path / "cap.sqlite3", "en")
    tasks(rig, intake(600))
    try:
        await _run(rig)
        [cut] = [p for _, k, p in rig.room.notices if k == "adversarial.manifest_cut"]
        assert cut["total"] == "600" and 0 < int(cut["kept"]) < 600
        prompt = debater(rig, RECONCILER_ID).requests[0].prompt
        assert f"[manifest cut at 4,000 tokens: {600 - int(cut['kept'])} of 600 items" in prompt
        assert "E600 |" not in prompt and "  - E600 | fact 600" in _page(rig)  # the whole
    finally:
        await rig.stop()


async def test_the_result_page_and_the_closing_block_are_rendered_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # They read every role's whole answer: megabytes from a hostile debater, which must not
    # hold the loop (a Stop pressed meanwhile is served).
    threads: dict[str, list[bool]] = {"render_page": [], "summary": []}
    for name, on_loop in threads.items():
        original = getattr(AdversarialFormat, name)

        def recorded(*args: Any, _original: Any = original, _seen: list[bool] = on_loop) -> Any:
            _seen.append(threading.current_thread() is threading.main_thread())
            return _original(*args)

        monkeypatch.setattr(AdversarialFormat, name, recorded)
    rig = adversarial_rig(tmp_path / "off-loop.sqlite3", "en")
    tasks(rig, intake(4))
    try:
        await _run(rig)
        assert rig.room.summaries and _page(rig)  # rendered, and shown
        assert threads["render_page"] and not any(threads["render_page"])
        assert threads["summary"] and not any(threads["summary"])
    finally:
        await rig.stop()
