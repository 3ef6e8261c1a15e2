"""The boardroom through the real engine and SQLite store, with doubles for the ports: the
whole protocol, round-1 isolation, the repair request, the synthesis (model and fallback),
crashes between answers and during the synthesis, and Stop in round 2."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from handlers.core.events import ProposalApproved, StopRequested, UserAnswered
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, GEMINI, FailureKind, Phase, Proposal
from handlers.ports import DebaterError
from tests.handlers.boardroom_script import PANEL, position, rebuttal
from tests.handlers.conftest import ALICE, Rig, proposal

R1 = {AG: "yes", CLAUDE: "conditional", GEMINI: "no"}
R2 = {AG: "yes", CLAUDE: "conditional", GEMINI: "conditional"}  # a majority
SPLIT = {AG: "yes", CLAUDE: "no", GEMINI: "conditional"}  # divided
BOARDROOM_PAGES = [f"round-{n}/{s}" for n in (1, 2) for s in (AG, CLAUDE, GEMINI)] + ["synthesis"]
WHY = "AG's LISTEN/NOTIFY argument convinced Gemini"
DECISION = "Adopt the Postgres outbox next sprint: yes or no?"
STATED = json.dumps({"decision": DECISION})
TASKS = ["decision", "synthesis", "advisor"]


def board(path: Path, language: str = "ko", finals: dict[str, str] = R2, **kw: object) -> Rig:
    kw.setdefault("roster", PANEL)
    rig = Rig(path, format="boardroom", ticking_store=True, language=language, **kw)  # type: ignore[arg-type]  # Rig's options, passed on
    script(rig, language, finals)
    outputs(rig, json.dumps({"recommendation": "go"}))
    return rig


def outputs(rig: Rig, synthesis: str | None, advisor: str | None = "") -> None:
    """The moderator's outputs: the decision, the draft synthesis and its review (None:
    unavailable; an empty review confirms the draft as it is)."""
    rig.moderator.task_outputs.clear()
    rig.moderator.enqueue_task("decision", STATED)
    if synthesis is not None:
        rig.moderator.enqueue_task("synthesis", synthesis)
    if advisor is not None:
        rig.moderator.enqueue_task("advisor", advisor or synthesis or "{}")


def script(rig: Rig, language: str, finals: dict[str, str] = R2) -> None:
    for member in rig.roster:
        why = WHY if member.id == GEMINI else ""
        rig.debaters[member.id].by_round = {  # the same answer however often it is asked
            1: position(member.id, R1.get(member.id, "yes"), language),
            2: rebuttal(member.id, finals.get(member.id, "yes"), language, why),
        }


async def open_board(rig: Rig, proposed: Proposal | None = None) -> int:
    debate = await rig.h.propose(proposed or proposal())
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    return debate.id


async def finish(rig: Rig, debate_id: int) -> None:
    await asyncio.wait_for(rig.h.wait_idle(debate_id), 20)


@pytest.mark.parametrize("language", ["ko", "pt-BR"])
async def test_a_whole_boardroom_debate(tmp_path: Path, language: str) -> None:
    rig = board(tmp_path / "board.sqlite3", language)
    outputs(
        rig,
        json.dumps(
            {
                "tracker": [{"member": GEMINI, "why": WHY}],
                "tensions": ["speed against audit"],
                "insight": "LISTEN/NOTIFY",
                "conditions": ["a load test"],
                "irreconcilable": False,
                "recommendation": "adopt the outbox",
                "guardrails": ["load test first"],
            }
        ),
    )
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED
        turns = await rig.h._turns.last_turns(debate_id, 100)
        assert [(t.number, t.round) for t in turns] == [(n, 1 + (n > 3)) for n in range(1, 7)]
        assert [r.task for r in rig.moderator.task_requests] == TASKS
        assert proposal().question in rig.moderator.task_requests[0].prompt
        for member in PANEL:  # the question as the moderator stated it, to everyone
            assert DECISION in rig.debaters[member.id].requests[0].prompt
        stated = [p for _, k, p in rig.room.notices if k == "boardroom.decision"]
        assert stated == [{"decision": DECISION}]
        prompt = rig.moderator.task_requests[1].prompt
        assert all(t.text in prompt for t in turns)  # the synthesis read every answer verbatim
        assert "MAJORITY" in prompt
        synthesis = rig.wiki.page(debate_id, "synthesis")
        assert "| ⟦boardroom.col_who⟧ |" in synthesis  # the vote tracker table
        gemini_row = next(line for line in synthesis.splitlines() if line.startswith("| Gemini"))
        assert "⟦boardroom.vote_no⟧ | ⟦boardroom.vote_conditional⟧ | ⟦boardroom.yes_changed⟧" in (
            gemini_row
        )
        assert WHY in gemini_row  # the vote change is tracked with its reason
        assert "⟦boardroom.result_majority⟧" in synthesis and "adopt the outbox" in synthesis
        for member in PANEL:
            for number in (1, 2):
                page = rig.wiki.page(debate_id, f"round-{number}/{member.id}")
                own = next(t for t in turns if t.seat == member.id and t.round == number)
                assert own.text in page
        (summary,) = rig.room.summaries
        assert "Gemini: ⟦boardroom.vote_no⟧ → ⟦boardroom.vote_conditional⟧" in summary
        assert rig.room.conclusions == []  # the format's closing block replaces it
        assert set(rig.wiki.pages[debate_id]) == set(BOARDROOM_PAGES)
        assert "boardroom.round1" in rig.room.notice_keys()
    finally:
        await rig.stop()


async def test_the_last_word_links_the_synthesis_that_records_the_outcome(tmp_path: Path) -> None:
    # Before, the thread's last word linked the page the format lists last: a member's
    # round-2 answer, which records one vote, not the panel's outcome.
    rig = board(tmp_path / "record.sqlite3")
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        _, key, params = rig.room.notices[-1]
        assert key == "debate.outcome_recorded"
        assert params["url"] == f"https://wiki.test/debates/{debate_id}/synthesis"
    finally:
        await rig.stop()


async def test_round_one_is_isolated_in_every_prompt_and_in_the_thread(tmp_path: Path) -> None:
    rig = board(tmp_path / "isolated.sqlite3")
    stored = {seat: asyncio.Event() for seat in (AG, CLAUDE)}
    queued_before_last: list[str] = []

    async def last_to_answer() -> str:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in stored.values())), 10)
        pending = await rig.h._effects.pending_effects(debate_id, 100)
        queued_before_last.extend(effect.kind for _, effect in pending)
        return position(GEMINI, "no")

    rig.debaters[GEMINI].enqueue(last_to_answer)
    original = rig.plan.tick

    def tick(name: str) -> None:
        original(name)
        seat = name.removeprefix("stored:")
        if seat in stored:
            stored[seat].set()

    rig.plan.tick = tick  # type: ignore[method-assign]  # signals each seat's store
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        # Two answers were stored and the third not yet: nothing of them is on its way out.
        assert queued_before_last and "post_turn" not in queued_before_last
        assert "append_round_log" not in queued_before_last
        turns = await rig.h._turns.last_turns(debate_id, 100)
        first = [t for t in turns if t.round == 1]
        assert len(first) == 3
        for member in PANEL:
            requests = rig.debaters[member.id].requests
            isolated, informed = requests[0], requests[1]
            for turn in first:
                if turn.seat != member.id:
                    assert turn.text not in isolated.prompt, (member.id, turn.seat)
                assert informed.prompt.count(turn.text) == 1, (member.id, turn.seat)
            assert "(당신의 것)" in informed.prompt  # its own position is marked as its own
        assert sorted(n for _, n in rig.room.turn_posts) == [1, 2, 3, 4, 5, 6]
    finally:
        await rig.stop()


async def test_a_missing_part_gets_one_repair_request(tmp_path: Path) -> None:
    rig = board(tmp_path / "repair.sqlite3")
    no_risks = "1. 투표: 찬성\n2. Argument only.\n4. Conditions.\n5. Metrics\n- m1\n- m2\n"
    still_none = "3. Still no list, just a sentence.\n"  # the repair does not fix it either
    rig.debaters[AG].enqueue(no_risks, still_none)
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        prompts = [r.prompt for r in rig.debaters[AG].requests]
        assert len(prompts) == 3  # the answer, one repair, round 2: no second repair
        assert ": risks (2+)\n" in prompts[1]  # only what lacks is named
        assert prompts[1].count(no_risks) == 1  # the answer as it was
        assert ("boardroom.repair", {"seat": "AG", "missing": "risks (2+)"}) in [
            (k, p) for _, k, p in rig.room.notices
        ]
        turns = await rig.h._turns.last_turns(debate_id, 100)
        ag = [t.text for t in turns if t.seat == AG]
        assert ag[:2] == [no_risks, still_none]  # both kept verbatim
        assert prompts[2].count(no_risks) == 1 and prompts[2].count(still_none) == 1
        assert all(no_risks in r.prompt for r in rig.debaters[CLAUDE].requests[1:])
    finally:
        await rig.stop()


async def test_without_a_model_the_synthesis_falls_back_to_the_members_words(
    tmp_path: Path,
) -> None:
    rig = board(tmp_path / "rules.sqlite3")
    outputs(rig, None, None)  # the model cannot write the synthesis, nor review it
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED
        assert "boardroom.task_fallback" in rig.room.notice_keys()
        synthesis = rig.wiki.page(debate_id, "synthesis")
        assert "Disagreement of claude with someone." in synthesis  # a tension, quoted
        assert WHY in synthesis  # the reason of the change, from Gemini's own answer
        ko = Strings("ko")  # the majority's vote, in the reader's word
        advice = f"## {ko('boardroom.recommendation')}\n\n{ko('boardroom.vote_conditional')}\n"
        assert advice in fill_keys(synthesis, ko)
        # guarded by where the majority (Claude, Gemini) said its position works and fails
        guardrails = synthesis.split("boardroom.guardrails⟧:**\n")[1]
        assert "- Claude: works while claude's assumption holds" in guardrails
        assert "- Gemini: works while gemini's assumption holds" in guardrails
        assert "AG:" not in guardrails  # AG voted yes, not with the majority
    finally:
        await rig.stop()


async def test_stop_during_round_two_ends_it_and_keeps_round_one(tmp_path: Path) -> None:
    rig = board(tmp_path / "stop.sqlite3")
    hung = asyncio.Event()

    async def hang() -> None:
        hung.set()
        await asyncio.Event().wait()

    rig.debaters[CLAUDE].enqueue(position(CLAUDE, "no"), hang)
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await asyncio.wait_for(hung.wait(), 10)
        await rig.h.submit(debate_id, StopRequested(ALICE))
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.STOPPED and debate.floor.asked == ()
        turns = await rig.h._turns.last_turns(debate_id, 100)
        assert {t.seat for t in turns if t.round == 1} == {AG, CLAUDE, GEMINI}
        assert all(count == 1 for count in rig.room.turn_posts.values())
        assert {n for _, n in rig.room.turn_posts} == {t.number for t in turns}
        assert [r.task for r in rig.moderator.task_requests] == ["decision"]  # no synthesis
        assert len(rig.room.summaries) == 1
        _, key, params = rig.room.notices[-1]  # no synthesis: the Round-Log records it
        assert key == "debate.outcome_recorded"
        assert params["url"] == f"https://wiki.test/debates/{debate_id}/round-log"
    finally:
        await rig.stop()


async def _calls(tmp_path: Path) -> int:
    rig = board(tmp_path / "dry.sqlite3")
    await rig.start()
    try:
        await finish(rig, await open_board(rig))
    finally:
        await rig.stop()
    return rig.plan.calls


async def test_a_crash_anywhere_asks_nothing_twice_and_posts_nothing_twice(
    tmp_path: Path,
) -> None:
    total = await _calls(tmp_path)
    between = during_synthesis = 0
    for at in range(1, total + 1):
        rig = board(tmp_path / f"crash-{at}.sqlite3")
        rig.plan.at = at
        await rig.start()
        try:
            debate_id = await open_board(rig)
            await finish(rig, debate_id)
            where = f"crash at call {at} ({rig.plan.log[at - 1]})"
            stored = {t.number for t in await rig.h._turns.last_turns(debate_id, 100)}
            between += stored & {1, 2, 3} not in (set(), {1, 2, 3})
            crashed_debate = await rig.h.get(debate_id)
            during_synthesis += crashed_debate.floor.step == "task:synthesis"
            asked_before = {m: len(d.requests) for m, d in rig.debaters.items()}
            await rig.rebuild()
            await finish(rig, debate_id)

            assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED, where
            turns = await rig.h._turns.last_turns(debate_id, 100)
            assert sorted(t.number for t in turns) == [1, 2, 3, 4, 5, 6], where
            for member, double in rig.debaters.items():
                again = {r.turn for r in double.requests[asked_before[member] :]}
                assert not again & stored, f"{where}: {member} asked again for {again & stored}"
            tasks = [r.task for r in rig.moderator.task_requests]
            assert tasks == TASKS, where  # a crash at the call: not asked
            assert sorted(rig.room.turn_posts.items()) == [
                ((debate_id, n), 1) for n in range(1, 7)
            ], where
            assert all(count == 1 for count in rig.wiki.keys.values()), where
            assert len(rig.room.summaries) == 1, where
        finally:
            await rig.stop()
    assert between >= 2 and during_synthesis >= 1, (between, during_synthesis)


async def test_irreconcilable_positions_end_in_a_question_to_the_people(tmp_path: Path) -> None:
    rig = board(tmp_path / "people.sqlite3", finals=SPLIT)
    split = {
        "irreconcilable": True,
        "question": "Outbox or Streams?",
        "options": ["Outbox", "Streams"],
        "recommendation": "never shown",
    }
    outputs(rig, json.dumps(split))
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await asyncio.wait_for(rig.room.signal("asked").wait(), 10)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        (question,) = rig.room.questions
        assert question.text == "Outbox or Streams?" and question.options == ("Outbox", "Streams")
        assert "boardroom.escalate_buttons" in rig.room.notice_keys()  # how to answer, said
        assert (await rig.h.get(debate_id)).phase is Phase.AWAITING_USER
        assert rig.room.summaries == []  # nothing is closed before the people decide
        await rig.h.submit(debate_id, UserAnswered(ALICE, "Outbox"))
        await finish(rig, debate_id)
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        (summary,) = rig.room.summaries
        assert "⟦boardroom.people_decided⟧: alice: Outbox" in summary
        assert "never shown" not in summary
        synthesis = rig.wiki.page(debate_id, "synthesis")
        assert "Outbox or Streams?" in synthesis  # the question instead of a recommendation
        assert ("answer|alice|Outbox") in [c for _, _, c in rig.wiki.writes]  # in the Round-Log
        assert "⟦boardroom.recommendation⟧" not in synthesis
    finally:
        await rig.stop()


KEY = "⟦boardroom.panel⟧"  # a real key, as a member, the moderator or a person may write it


async def test_keys_written_by_members_the_moderator_and_the_people_reach_them_verbatim(
    tmp_path: Path,
) -> None:
    rig = board(tmp_path / "keys.sqlite3", "en", SPLIT)
    own = position(AG, "yes", "en") + f"- AG quotes {KEY} and ⟦⟦ as written\n"
    rig.debaters[AG].by_round[1] = own
    rig.moderator.task_outputs.clear()
    rig.moderator.enqueue_task("decision", json.dumps({"decision": f"Adopt {KEY}?"}))
    split = {
        "irreconcilable": True,
        "question": f"Outbox or {KEY}?",
        "options": ["Outbox"],
        "tensions": [f"speed {KEY}"],
        "insight": f"insight {KEY}",
    }
    rig.moderator.enqueue_task("synthesis", json.dumps(split))
    t = Strings("en")
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await asyncio.wait_for(rig.room.signal("asked").wait(), 10)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        await rig.h.submit(debate_id, UserAnswered(ALICE, f"Outbox, not {KEY}"))
        await finish(rig, debate_id)
        title = f"{proposal().topic} — {t('boardroom.first_round_title')} — AG"
        round_page = fill_keys(rig.wiki.page(debate_id, f"round-1/{AG}"), t)
        assert round_page == f"{title}\n# {title}\n\n{own}\n"  # the answer exactly as written
        synthesis = fill_keys(rig.wiki.page(debate_id, "synthesis"), t)
        (summary,) = (fill_keys(block, t) for block in rig.room.summaries)
        assert f"# {t('boardroom.synthesis_title')}: Adopt {KEY}?" in synthesis
        assert f"**{t('boardroom.agents')}:** AG (architect)" in synthesis  # the page's own key
        assert f"- speed {KEY}" in synthesis  # written before the people answer
        assert f"\ninsight {KEY}\n" in synthesis and f"\nOutbox or {KEY}?" in synthesis
        assert f"{t('boardroom.question_label')}: Adopt {KEY}?" in summary
        assert f"{t('boardroom.squad')}: AG (architect)" in summary
        assert f"{t('boardroom.main_tension')}: speed {KEY}" in summary
        assert f"{t('boardroom.insight')}: insight {KEY}" in summary
        assert f"{t('boardroom.question')}: Outbox or {KEY}?" in summary
        assert f"{t('boardroom.people_decided')}: alice: Outbox, not {KEY}" in summary
    finally:
        await rig.stop()


async def test_credit_a_refused_seat_is_stopped_and_the_panel_goes_on(tmp_path: Path) -> None:
    rig = board(tmp_path / "credit.sqlite3")
    await rig.start()
    try:
        rig.debaters[CLAUDE].enqueue(DebaterError(FailureKind.CREDITS, "out of usage credits"))
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        ended = await rig.h.get(debate_id)
        assert ended.phase is Phase.CONCLUDED and ended.spend.benched == (CLAUDE,)
        assert len(rig.debaters[CLAUDE].requests) == 1  # never asked again: no retry loop
        assert len(rig.debaters[AG].requests) == 2 == len(rig.debaters[GEMINI].requests)
        stopped = [p for _, key, p in rig.room.notices if key == "limits.credits_stopped"]
        assert stopped == [{"seat": "Claude"}]  # said once, though round 2 skipped it again
        assert "debater.failed_repeatedly" not in rig.room.notice_keys()
    finally:
        await rig.stop()
