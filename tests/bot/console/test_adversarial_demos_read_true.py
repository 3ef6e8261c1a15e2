"""Each adversarial demo (ko, en, pt-BR) replays as a full result a person can read: no
degraded notice, no internal id, no doubled name, no word of another language outside what the
roles wrote, and the real model of each role on the result page."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import replay
from handlers.core.i18n import LANGUAGES, Strings
from tests.bot.console.conftest import plain_console

ROLE_KEYS = ("role_advocate", "role_challenger", "role_reconciler", "role_validator")
ENGLISH_ROLES = ("Advocate", "Challenger", "Reconciler", "Validator", "Probe")
INTERNAL_IDS = ("probe-cost", "probe-alternatives", "answer:", "debate-result.md)", "⟦")


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_adversarial_demo_reads_true(tmp_path: Path, language: str) -> None:
    recording = recording_for("adversarial", language)
    t = Strings(language)
    screen = io.StringIO()
    result = await replay(plain_console(screen), tmp_path / "demo", 0.0, recording)
    out = screen.getvalue()
    page = result.pages["debate-result"].read_text(encoding="utf-8")
    assert t("degraded.line") not in out and "⚠️" not in out
    assert not [i for i in INTERNAL_IDS if i in out.replace(str(tmp_path), "")]
    assert "⟦" not in page and " reconciler " not in out
    roles = [t(f"adversarial.result.{key}") for key in ROLE_KEYS]
    for role in roles:  # a role is never named twice in a row ("조정자(Reconciler): Reconciler")
        for doubled in (f"{role} ({role}", f"{role}({role}", f"{role}: {role}"):
            assert doubled not in out and doubled not in page
    # What the roles and the moderator's checks wrote is theirs, verbatim; the rest is ours.
    ours = out
    written = [turn.reply for turn in recording.turns]
    written += [text for task, text in recording.tasks.items() if task != "intake"]
    for text in written:
        ours = ours.replace(text, "")
    if language != "en":
        assert [w for w in ENGLISH_ROLES if w in ours] == []
        assert "(cost-first)" not in ours and "(alternatives-first)" not in ours
    # The Cost section names each role's real model, never "its backend's own model".
    cost = page.split(f"### {t('adversarial.result.cost')}\n", 1)[1].split("\n## ", 1)[0]
    assert t("adversarial.result.backend_model") not in cost
    models = {turn.meta.model for turn in recording.turns}
    assert models and all(model in cost for model in models)
    assert recording.options["adversarial.model_light"] in cost
    tier = next(
        line
        for line in page.splitlines()
        if line.startswith(f"**{t('adversarial.result.tier')}:**")
    )
    assert t("adversarial.result.tier_mid") in tier and t("adversarial.result.tier_top") in tier
