"""The boardroom's grounding files (BOARDROOM_PROJECT_FILE, _SPEC_FILE, _GUARDRAILS_FILE): a
readable file's text travels on every debate as its option; a missing, unreadable or too long
one stops start-up with one line naming the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import MAX_GROUNDING_CHARS, Settings
from tests.bot.test_settings_first_day import problems


def test_each_file_s_text_is_a_debate_option(tmp_path: Path) -> None:
    spec, guardrails = tmp_path / "spec.md", tmp_path / "guardrails.md"
    spec.write_text("spec 14: reads only\n", encoding="utf-8")
    guardrails.write_text("- no data leaves its region", encoding="utf-8")
    settings = Settings(
        _env_file=None, BOARDROOM_SPEC_FILE=spec, BOARDROOM_GUARDRAILS_FILE=guardrails
    )
    options = dict(settings.format_options)
    assert options["boardroom.spec"] == "spec 14: reads only"
    assert options["boardroom.guardrails"] == "- no data leaves its region"
    assert "boardroom.project" not in options  # not set: the brief says "-" unless a form adds


def test_a_file_that_cannot_be_read_or_is_too_long_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    long = tmp_path / "long.md"
    long.write_text("x" * (MAX_GROUNDING_CHARS + 1), encoding="utf-8")
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\xff\xfe\x00bad")
    lines = problems(
        monkeypatch,
        tmp_path,
        BOARDROOM_PROJECT_FILE=str(tmp_path / "missing.md"),
        BOARDROOM_SPEC_FILE=str(long),
        BOARDROOM_GUARDRAILS_FILE=str(binary),
    )
    assert set(lines) == {
        "BOARDROOM_PROJECT_FILE",
        "BOARDROOM_SPEC_FILE",
        "BOARDROOM_GUARDRAILS_FILE",
    }
    assert "missing.md" in lines["BOARDROOM_PROJECT_FILE"]
    assert str(MAX_GROUNDING_CHARS) in lines["BOARDROOM_SPEC_FILE"]
    assert "UTF-8" in lines["BOARDROOM_GUARDRAILS_FILE"]
