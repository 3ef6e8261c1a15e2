"""How a boardroom debate ends, through the real engine and store: a result ends it with its
synthesis (no budget pause), the advisor reviews the draft (or the draft stands, marked as
not reviewed), only a divided panel that cannot be reconciled goes to the people, told how
to answer, and a squad over five sits as the card offered it: the moderator's suggestion with
its reason, else the five the rules find most relevant."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

from handlers.core.events import OptionChosen, ProposalApproved, UserAnswered
from handlers.core.model import Actor, Backend, Outcome, Participant, Phase
from tests.handlers.boardroom_script import PANEL
from tests.handlers.conftest import ALICE, proposal
from tests.handlers.test_boardroom_flow import (
    DECISION,
    R2,
    SPLIT,
    board,
    finish,
    open_board,
    outputs,
)

DRAFT = {
    "tracker": [],
    "tensions": ["speed against audit"],
    "insight": "LISTEN/NOTIFY",
    "conditions": ["a load test"],
    "irreconcilable": False,
    "recommendation": "draft advice",
    "guardrails": ["draft guardrail"],
}
REVIEWED = DRAFT | {
    "recommendation": "reviewed advice",
    "guardrails": ["a load test first"],
    "review": "the guardrail now names the load test",
}
SPLIT_UP = DRAFT | {
    "irreconcilable": True,
    "question": "Outbox or Streams?",
    "options": ["Outbox", "Streams"],
}


async def test_a_majority_ends_with_its_synthesis_even_with_the_budget_pause(
    tmp_path: Path,
) -> None:
    rig = board(tmp_path / "majority.sqlite3", budget_pause=True)
    outputs(rig, json.dumps(DRAFT), json.dumps(REVIEWED))
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.VERDICT
        assert rig.room.budget_asks == [] and debate.people.paused == ""  # no "one more round?"
        assert (debate.floor.round, debate.setup.max_rounds) == (
            2,
            2,
        )  # the seed's two rounds, named
        (summary,) = rig.room.summaries
        assert "⟦boardroom.result_majority⟧" in summary and "reviewed advice" in summary
    finally:
        await rig.stop()


async def test_the_advisor_reviews_the_draft_and_the_page_says_so(tmp_path: Path) -> None:
    rig = board(tmp_path / "advisor.sqlite3", "pt-BR")
    outputs(rig, json.dumps(DRAFT), json.dumps(REVIEWED))
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        review = rig.moderator.task_requests[-1]
        assert review.task == "advisor" and review.json
        assert json.dumps(DRAFT) in review.prompt  # the draft,
        assert "the main reasoning of claude" in review.prompt  # the positions in short,
        assert "Consensus condition of gemini" in review.prompt
        assert proposal().context in review.prompt and DECISION in review.prompt  # constraints
        assert "O rascunho da síntese:" in review.prompt  # in the debate's language
        page = rig.wiki.page(debate_id, "synthesis")
        assert "reviewed advice" in page and "draft advice" not in page
        said = "> ⟦boardroom.reviewed_by_moderator⟧: Gemini. the guardrail now names the load test"
        assert said in page  # no advisor seat: the moderator's second pass
        order = [
            "⟦boardroom.date⟧",
            "⟦boardroom.squad⟧",
            "⟦boardroom.agents⟧",
            "## ⟦boardroom.tracker⟧",
            "## ⟦boardroom.result⟧",
            "## ⟦boardroom.changes⟧",
            "## ⟦boardroom.tensions⟧",
            "## ⟦boardroom.insight⟧",
            "## ⟦boardroom.conditions⟧",
            "## ⟦boardroom.recommendation⟧",
        ]
        at = [page.index(heading) for heading in order]
        assert at == sorted(at), list(zip(order, at, strict=True))  # the seed's order
        started = (await rig.h.get(debate_id)).setup.started_at
        assert started is not None and f"**⟦boardroom.date⟧:** {started.date()}" in page
        assert "**⟦boardroom.squad⟧:** AG (architect), Claude (security reviewer)" in page
    finally:
        await rig.stop()


async def test_without_the_advisor_the_draft_stands_marked_not_reviewed(tmp_path: Path) -> None:
    rig = board(tmp_path / "draft.sqlite3")
    outputs(rig, json.dumps(DRAFT), None)  # the review request fails
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        page = rig.wiki.page(debate_id, "synthesis")
        assert "draft advice" in page and "> ⟦boardroom.not_reviewed⟧" in page
        assert "⟦boardroom.reviewed_by" not in page
        assert "boardroom.unreviewed" in rig.room.notice_keys()  # said in the thread too
        (summary,) = rig.room.summaries
        assert "⟦boardroom.not_reviewed⟧" in summary
    finally:
        await rig.stop()


async def test_a_majority_is_not_put_to_the_people_whatever_the_model_says(
    tmp_path: Path,
) -> None:
    rig = board(tmp_path / "no-stop.sqlite3", finals=R2)
    outputs(rig, json.dumps(SPLIT_UP), json.dumps(SPLIT_UP))
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        assert rig.room.questions == []
        page = rig.wiki.page(debate_id, "synthesis")
        assert "## ⟦boardroom.recommendation⟧" in page and "## ⟦boardroom.question⟧" not in page
    finally:
        await rig.stop()


async def test_a_divided_panel_with_no_options_is_asked_for_a_typed_answer(
    tmp_path: Path,
) -> None:
    rig = board(tmp_path / "typed.sqlite3", finals=SPLIT)
    outputs(rig, None, None)  # the rules' synthesis: divided, no options to offer
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await asyncio.wait_for(rig.room.signal("asked").wait(), 10)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        (question,) = rig.room.questions
        assert question.options == () and question.text == DECISION
        (why,) = [p["why"] for _, k, p in rig.room.notices if k == "boardroom.escalate_typed"]
        assert why == "⟦boardroom.escalate_by_rules⟧"  # no advisor, no model found it so
        await rig.h.submit(debate_id, UserAnswered(ALICE, "Streams, with a pilot"))
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.PEOPLE
        assert "Streams, with a pilot" in rig.wiki.page(debate_id, "synthesis")
    finally:
        await rig.stop()


ROLES = (
    "frontend designer",
    "Redis operator",
    "LRU cache author",
    "marketing lead",
    "Redis LRU tuner",
    "legal counsel",
    "in-process specialist",
)
SQUAD = tuple(
    Participant(f"m{n}", Backend.CLAUDE_CLI, f"M{n}", persona=role) for n, role in enumerate(ROLES)
)


async def test_a_squad_of_seven_sits_as_the_moderator_suggested_with_its_reason(
    tmp_path: Path,
) -> None:
    rig = board(tmp_path / "seven.sqlite3", roster=SQUAD)
    outputs(rig, json.dumps(DRAFT))
    await rig.start()
    try:
        suggested = replace(
            proposal(),
            squad=("m0", "M2", "m3", "m4", "m6"),  # a name as a model may write it
            squad_kind="architecture",
            squad_reason="the five who run or design the cache",
        )
        debate_id = await open_board(rig, suggested)
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED and debate.ids == ("m0", "m2", "m3", "m4", "m6")
        assert "M1" not in rig.moderator.task_requests[0].prompt  # no pick asked at opening
        assert not rig.debaters["m1"].requests and not rig.debaters["m5"].requests
        (narrowed,) = [p for _, k, p in rig.room.notices if k == "boardroom.narrowed"]
        why = "⟦boardroom.kind_architecture⟧ — the five who run or design the cache"
        assert narrowed["reasons"] == why
        assert narrowed["left"] == "M1, M5" and narrowed["count"] == "7"
        page = rig.wiki.page(debate_id, "synthesis")
        assert f"M6 (in-process specialist) (7) — ⟦boardroom.narrowed_label⟧: {why}" in page
    finally:
        await rig.stop()


async def test_without_a_suggestion_the_rules_seat_the_five_whose_roles_fit(
    tmp_path: Path,
) -> None:
    rig = board(tmp_path / "rules-seven.sqlite3", roster=SQUAD)
    outputs(rig, json.dumps(DRAFT))  # detection suggested no squad
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        # A cache is an architecture decision: the designer and the cache author first, then
        # Redis and LRU (the question's words) and in-process (its context's).
        assert debate.ids == ("m0", "m1", "m2", "m4", "m6")
        (narrowed,) = [p for _, k, p in rig.room.notices if k == "boardroom.narrowed"]
        assert narrowed["reasons"] == "⟦boardroom.kind_architecture⟧ — ⟦boardroom.squad_fit⟧"
        assert narrowed["left"] == "M3, M5"
        assert {r.participant for d in rig.debaters.values() for r in d.requests} == set(debate.ids)
    finally:
        await rig.stop()


PROJECT = "Payments service: 2,000 requests a second, three regions"
SPEC = "spec 14: the cache serves reads only"
GUARDRAILS = "- no personal data leaves its region\n- p99 under 200 ms"
CAROL = Actor(user_id=102, name="carol")


async def test_every_member_s_first_brief_carries_the_context_spec_and_guardrails(
    tmp_path: Path,
) -> None:
    """The settings' files (options) and the card's forms reach each member's round-1 brief."""
    configured = (("boardroom.project", PROJECT), ("boardroom.guardrails", GUARDRAILS))
    rig = board(tmp_path / "grounded.sqlite3", options=configured)
    outputs(rig, json.dumps(DRAFT))
    await rig.start()
    try:
        debate = await rig.h.propose(proposal())
        assert debate is not None
        added = OptionChosen(CAROL, "boardroom.spec", SPEC)
        assert (await rig.h.submit(debate.id, added)).taken
        await rig.h.submit(debate.id, ProposalApproved(ALICE))
        await finish(rig, debate.id)
        for member in PANEL:
            first, second = (r.prompt for r in rig.debaters[member.id].requests[:2])
            assert PROJECT in first and f"carol: {SPEC}" in first and GUARDRAILS in first
            assert PROJECT not in second  # round 2 reads the positions; its session had these
    finally:
        await rig.stop()
