"""The boardroom's advisor through the real engine and store: seated on Claude's top tier
when the panel has a Claude seat (as the adversarial Reconciler is seated), else the moderator's
second pass; the page names the model that reviewed; its silence leaves the draft standing,
said so; the settings choose its seat, per operation as seed 000's `advisor.operacoes`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.root.engine import wanted_backends
from bot.settings import Settings, SettingsError, load_settings
from handlers.core.formats.boardroom.advisor import ADVISOR_ID, ADVISOR_OPTION, MODERATOR_MODEL
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, GEMINI, Backend, FailureKind, Phase
from handlers.ports import DebaterError
from tests.handlers.boardroom_script import PANEL
from tests.handlers.conftest import Rig
from tests.handlers.doubles import FakeDebater
from tests.handlers.test_boardroom_ending import DRAFT, REVIEWED
from tests.handlers.test_boardroom_flow import board, finish, open_board, outputs

AUTO = ((ADVISOR_OPTION, "auto"), ("adversarial.model_top", "opus"), (MODERATOR_MODEL, "flash"))


def seated_advisor(path: Path, *answers: str | DebaterError) -> Rig:
    rig = board(path, options=AUTO)
    outputs(rig, json.dumps(DRAFT), None)  # the moderator is never asked to review
    advisor = FakeDebater(ADVISOR_ID, rig.plan)
    advisor.enqueue(*answers)
    rig.debaters[ADVISOR_ID] = advisor  # the Claude backend hands it the advisor's asks
    return rig


async def test_the_advisor_sits_on_claude_s_top_tier_and_the_page_names_its_model(
    tmp_path: Path,
) -> None:
    rig = seated_advisor(tmp_path / "seat.sqlite3", json.dumps(REVIEWED))
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED
        assert [r.task for r in rig.moderator.task_requests] == ["decision", "synthesis"]
        (asked,) = rig.debaters[ADVISOR_ID].requests
        assert asked.model == "opus"  # the seed's Opus (CLAUDE_MODEL_TOP)
        assert json.dumps(DRAFT) in asked.prompt and "the main reasoning of claude" in asked.prompt
        (who,) = [p["who"] for _, k, p in rig.room.notices if k == "boardroom.advisor_asked"]
        assert who == "Claude (opus)"
        page = rig.wiki.page(debate_id, "synthesis")
        said = "> ⟦boardroom.reviewed_by⟧: Claude (advisor-model). the guardrail now names"
        assert said in page and "reviewed advice" in page  # the model the CLI reported
        # The advisor votes on nothing: three rows in the tracker, the panel's result.
        rows = [line for line in page.splitlines() if line.startswith("| ")][1:]
        assert [row.split(" | ")[0] for row in rows] == ["| AG", "| Claude", "| Gemini"]
        assert "⟦boardroom.result_majority⟧" in page
        (summary,) = rig.room.summaries
        assert "⟦boardroom.reviewed_by⟧: Claude (advisor-model)." in summary
    finally:
        await rig.stop()


async def test_without_a_claude_seat_the_moderator_reviews_and_the_page_says_so(
    tmp_path: Path,
) -> None:
    no_claude = tuple(m for m in PANEL if m.id in (AG, GEMINI))
    rig = board(tmp_path / "moderator.sqlite3", roster=no_claude, options=AUTO)
    outputs(rig, json.dumps(DRAFT), json.dumps(REVIEWED))
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        assert [r.task for r in rig.moderator.task_requests] == ["decision", "synthesis", "advisor"]
        page = rig.wiki.page(debate_id, "synthesis")
        assert "> ⟦boardroom.reviewed_by_moderator⟧: Gemini (flash). the guardrail" in page
    finally:
        await rig.stop()


async def test_a_silent_advisor_leaves_the_draft_standing_said_so(tmp_path: Path) -> None:
    failed = DebaterError(FailureKind.TIMEOUT, "the advisor stays silent")  # tried twice
    rig = seated_advisor(tmp_path / "silent.sqlite3", failed, failed)
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED
        page = rig.wiki.page(debate_id, "synthesis")
        assert "draft advice" in page and "> ⟦boardroom.not_reviewed⟧" in page
        assert "boardroom.unreviewed" in rig.room.notice_keys()
    finally:
        await rig.stop()


def test_the_settings_name_the_advisor_s_seat_per_operation(tmp_path: Path) -> None:
    options = dict(Settings(_env_file=None).format_options)  # type: ignore[call-arg]
    assert options[ADVISOR_OPTION] == "auto"  # Claude's top tier when the panel has Claude
    chosen = Settings(  # type: ignore[call-arg]
        _env_file=None, ADVISOR="moderator", ADVISOR_OPERATIONS="debate-synthesis=gemini-cli:pro"
    )
    assert dict(chosen.format_options)[ADVISOR_OPTION] == "gemini-cli:pro"  # the override wins
    assert Backend.GEMINI_CLI in wanted_backends(chosen)  # its backend is built, as a seat's
    env = tmp_path / ".env"
    env.write_text("ADVISOR_OPERATIONS=debate-sintese=opus\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="ADVISOR_OPERATIONS"):
        load_settings(env, explicit=True)
    env.write_text("ADVISOR=ag-relay\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="ADVISOR"):
        load_settings(env, explicit=True)


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
async def test_without_the_moderator_each_notice_says_what_happened_in_words(
    tmp_path: Path, language: str
) -> None:
    # Before, the fallback named the step by its id ("사회자가 advisor 단계를 하지 못했습니다")
    # and said the advisor was skipped even when the decision was what fell back.
    rig = board(tmp_path / "rules.sqlite3", language)
    outputs(rig, None, None)
    rig.moderator.task_outputs.clear()  # no decision, draft or review from a model
    await rig.start()
    try:
        debate_id = await open_board(rig)
        await finish(rig, debate_id)
        t = Strings(language)
        said = [
            t(key, **{k: fill_keys(v, t) for k, v in params.items()})
            for _, key, params in rig.room.notices
            if key.startswith("boardroom.")
        ]
        keys = [key for _, key, _ in rig.room.notices]
        assert "boardroom.decision_detected" in keys and "boardroom.decision" not in keys
        assert "boardroom.unreviewed" in keys  # the draft stands, and the thread says so
        words = r"(advisor|synthesis|decision)"  # the step ids; English words only in English
        ids = re.compile(rf"\b{words} step\b" if language == "en" else rf"\b({words}|task)\b")
        assert not [line for line in said if ids.search(line)], said
    finally:
        await rig.stop()
