"""The factory, the doctor check, the bounded input, and both languages of the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.doctor import Status, check_moderator
from bot.root.engine import build_moderator
from bot.root.tables import Tables
from bot.settings import Settings, SettingsError
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Action, ModeratorSource, Outcome, Phase
from handlers.core.moderation.bounds import SUMMARY_MAX_CHARS
from handlers.rules_moderator import RulesModerator
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.gemini.builders import reply_text, turn, view_after
from tests.tools.gemini.conftest import Sleeps
from tools.gemini.api import GeminiApiBackend
from tools.gemini.cli_moderator import GeminiCliBackend
from tools.gemini.context import (
    JUDGE_TURN_MAX_CHARS,
    conclusion_prompt,
    judge_prompt,
)
from tools.store.db import Database


def settings(tmp_path: Path, **values: object) -> Settings:
    base: dict[str, object] = {
        "DATA_DIR": tmp_path,
        "DATABASE_PATH": tmp_path / "bot.sqlite3",
        "GEMINI_API_KEY": "doctor-key",
    }
    return Settings(_env_file=None, **{**base, **values})


async def test_the_factory_picks_the_backend_and_needs_a_key_for_the_api(
    tmp_path: Path, db: Database, sleeps: Sleeps
) -> None:
    api = build_moderator(settings(tmp_path), Tables(db), sleeps)
    cli = build_moderator(
        settings(tmp_path, MODERATOR_BACKEND="cli", GEMINI_API_KEY=None), Tables(db), sleeps
    )
    assert isinstance(api._backend, GeminiApiBackend)
    assert isinstance(cli._backend, GeminiCliBackend)
    await api.aclose()
    await cli.aclose()
    with pytest.raises(SettingsError, match="GEMINI_API_KEY"):
        build_moderator(settings(tmp_path, GEMINI_API_KEY=None), Tables(db), sleeps)


async def test_the_factory_scales_retry_waits_and_reads_the_base_url_from_the_environment(
    tmp_path: Path, db: Database, sleeps: Sleeps, fake: FakeGemini, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.url)
    fake.push({"kind": "error", "status": 429, "retry_delay": "8s"})
    moderator = build_moderator(settings(tmp_path, RETRY_WAIT_SCALE=0.25), Tables(db), sleeps)
    try:
        decision = await moderator.judge(view_after(turn(1, AG, reply_text("A", "partial"))))
    finally:
        await moderator.aclose()
    assert decision.source is ModeratorSource.GEMINI
    assert sleeps.waits == [2.0]
    assert [r["api_key"] for r in fake.generate_requests] == ["doctor-key"] * 2


async def test_doctor_reports_a_missing_key_as_missing(tmp_path: Path) -> None:
    check = await check_moderator(settings(tmp_path, GEMINI_API_KEY=None))
    assert check.status is Status.MISSING and "GEMINI_API_KEY" in check.detail


@pytest.mark.parametrize(
    ("step", "status"),
    [({"kind": "auto"}, Status.OK), ({"kind": "error", "status": 403}, Status.FAILING)],
)
async def test_doctor_sends_one_counted_request(
    tmp_path: Path, fake: FakeGemini, monkeypatch: pytest.MonkeyPatch, step: dict, status: Status
) -> None:
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.url)
    fake.push(step)
    config = settings(tmp_path)
    await (await Database.open(str(config.DATABASE_PATH))).close()  # the bot's, as `run` made it
    check = await check_moderator(config)
    assert check.status is status, check.detail
    assert len(fake.generate_requests) == 1
    db = await Database.open(str(config.DATABASE_PATH))
    try:
        row = await db.fetch_one("SELECT purpose FROM moderator_calls")
    finally:
        await db.close()
    assert row is not None and row[0] == "doctor"


async def test_doctor_s_request_makes_no_database(
    tmp_path: Path, fake: FakeGemini, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before `run` made the database, the request is counted in memory: doctor writes nothing."""
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", fake.url)
    fake.push({"kind": "auto"})
    config = settings(tmp_path)
    check = await check_moderator(config)
    assert check.status is Status.OK, check.detail
    assert len(fake.generate_requests) == 1
    assert not config.DATABASE_PATH.exists()


def test_the_judge_input_stays_bounded_however_long_the_debate() -> None:
    short = view_after(
        turn(3, AG, reply_text("가" * 2000, "partial")),
        turn(4, CLAUDE, reply_text("b" * 2000, "partial")),
        summary="s" * 800,
    )
    huge = view_after(
        *(
            turn(n, AG if n % 2 else CLAUDE, reply_text("x" * 50_000, "partial"))
            for n in range(1, 41)
        ),
        summary="line\n" * 10_000,
        turns=40,
        round=20,
    )
    small, large = judge_prompt(short, "ko"), judge_prompt(huge, "ko")
    assert large.messages[0][1].count("## Turn") == 1  # the newest turn only
    assert "## Turn 40" in large.messages[0][1] and "## Turn 39" not in large.messages[0][1]
    overhead = JUDGE_TURN_MAX_CHARS + SUMMARY_MAX_CHARS
    assert large.input_chars <= small.input_chars + overhead
    assert large.input_chars < 9_000


def test_a_judgement_reads_the_newest_turn_and_not_the_one_before() -> None:
    """The turn before was read whole by the last judgement, and its summary keeps it; the
    Conclusion, one request, still reads both."""
    earlier = "앞 " * 300 + "앞선 턴의 끝"
    latest = "새 " * 1200 + "새 턴의 끝"
    question = {"to": "opponent", "text": "교차 인스턴스 불일치는 하루 몇 건인가요?"}
    view = view_after(
        turn(3, AG, reply_text(earlier, "partial")),
        turn(4, CLAUDE, reply_text(latest, "disagree", question)),
    )
    judged = judge_prompt(view, "ko").messages[0][1]
    assert latest in judged  # the newest turn in full
    assert "앞 앞" not in judged and "Turn 3" not in judged  # not the one before
    assert question["text"] in judged and "stance: disagree" in judged  # and what it asked
    concluded = "\n".join(text for _, text in conclusion_prompt(view, "ko").messages)
    assert "앞선 턴의 끝" in concluded and "새 턴의 끝" in concluded  # the Conclusion reads both


def test_a_very_long_newest_turn_is_read_as_its_head_and_tail_with_a_note() -> None:
    opinion = "머리 " + "가운데 " * 3000 + "꼬리"
    view = view_after(turn(4, CLAUDE, reply_text(opinion, "partial")))
    judged = judge_prompt(view, "ko").messages[0][1]
    assert "머리" in judged and "꼬리" in judged
    left_out = len(opinion) - JUDGE_TURN_MAX_CHARS
    assert f"[… {left_out:,} characters left out here …]" in judged
    assert judged.count("가운데") < JUDGE_TURN_MAX_CHARS // 4


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("outcome", list(Outcome))
async def test_the_rules_speak_both_languages(language: str, outcome: Outcome) -> None:
    rules = RulesModerator(Strings(language))
    latest = turn(1, AG, reply_text("opinion", None, {"to": "user", "text": "q?"}))
    view = view_after(latest, phase=Phase.CONCLUDING, outcome=outcome)
    assert (await rules.judge(view)).action is Action.ASK_USER
    conclusion = await rules.conclude(view)
    assert conclusion.decision and len(conclusion.positions) == 2
