"""The free demo shows the claim board the README promises: after each judgement the board
(ids, where each claim stands, who holds it), and the Conclusion page ends with the final table,
in the debate's words."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import replay
from handlers.core.i18n import Strings
from handlers.core.model import WikiPage
from handlers.core.moderation.claims import ClaimStatus
from tests.bot.console.conftest import plain_console


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
async def test_the_free_demo_shows_the_claim_board_and_ends_with_its_table(
    tmp_path: Path, language: str
) -> None:
    recording, screen = recording_for("free", language), io.StringIO()
    result = await replay(plain_console(screen, width=400), tmp_path, 0.0, recording)
    t, debate = Strings(language), result.debate
    shown = screen.getvalue()
    claims = debate.moderation.claims
    # every standing a claim can have is shown on the way, each claim with its holders
    assert all(t(f"claims.{status.value}") in shown for status in ClaimStatus)
    assert shown.count(t("claims.console_title")) == len(recording.decisions)  # each judgement
    for claim in claims:
        holders = ", ".join(debate.name_of(seat) for seat in claim.holders)
        line = t(
            "claims.line",
            id=claim.id,
            status=t(f"claims.{claim.status.value}"),
            holders=holders,
            text=claim.text,
        ).replace("**", "")
        assert line in shown, line
    conclusion = result.pages[WikiPage.CONCLUSION.value].read_text(encoding="utf-8")
    table = conclusion.rsplit(f"## {t('wiki.claims.title')}\n", 1)[1]
    rows = [row for row in table.strip().splitlines() if row.startswith("| C")]
    assert [row.split(" | ")[0] for row in rows] == [f"| {claim.id}" for claim in claims]
    for row, claim in zip(rows, claims, strict=True):  # its standing in the reader's words
        assert row.endswith(f" | {t(f'claims.{claim.status.value}')} |"), row
