"""The boardroom demo's card shows the squad the recorded moderator suggested for the kind of
decision, with its reason, in each language (not a rules fallback the recording never made)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import run_demo
from handlers.core.i18n import Strings
from tests.bot.console.conftest import plain_console


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
def test_the_boardroom_demo_card_shows_the_moderator_s_squad(tmp_path: Path, language: str) -> None:
    screen, t = io.StringIO(), Strings(language)
    console = plain_console(screen, width=1000)  # one line per card line
    assert run_demo(tmp_path / "demo", 0.0, console, "boardroom", language) == 0
    out = screen.getvalue()
    detection = recording_for("boardroom", language).detection
    assert detection.squad and detection.squad_reason
    kind = t(f"boardroom.kind_{detection.squad_kind}")
    assert f"🧭 {t('boardroom.squad_suggested')} {kind} — {detection.squad_reason}" in out
    assert t("boardroom.squad_suggested_rules") not in out
