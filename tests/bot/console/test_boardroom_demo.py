"""`debate-room demo --format boardroom`: a recorded boardroom debate in each language through
the real engine, SQLite, the wiki outbox with the local wiki, and the console room (no tokens):
complete (the advisor's review included), never degraded, every word in its own language."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import run_demo
from handlers.core.formats.boardroom.advisor import ADVISOR_ID
from handlers.core.formats.boardroom.reply import parse_position
from handlers.core.i18n import Strings
from handlers.core.reply.parser import task_object
from tests.bot.console.conftest import plain_console

LANGUAGES = ("ko", "en", "pt-BR")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_boardroom_recording_is_a_complete_panel_with_its_review(language: str) -> None:
    recording = recording_for("boardroom", language)
    assert recording.format_name == "boardroom" and recording.language == language
    assert len(recording.roster) == 3 and all(m.persona for m in recording.roster)
    *panel, advice = recording.turns
    for entry in panel:
        found = parse_position(entry.reply, 1 if entry.turn <= 3 else 2)
        assert found.vote is not None, entry.turn
    assert advice.seat == ADVISOR_ID and advice.meta.model  # the advisor's own seat, its model
    reviewed = task_object(advice.reply)
    draft = task_object(recording.tasks["synthesis"])
    assert reviewed["review"] and set(draft) < set(reviewed)  # the draft's keys, and its review
    assert set(recording.tasks) == {"decision", "synthesis"}  # the moderator does not review


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_boardroom_demo_ends_reviewed_linking_its_synthesis(
    tmp_path: Path, language: str
) -> None:
    t = Strings(language)
    screen = io.StringIO()
    out = tmp_path / "demo"
    assert (
        run_demo(out, 0.0, plain_console(screen), format_name="boardroom", language=language) == 0
    )
    shown = screen.getvalue()
    assert t("degraded.line") not in shown  # a full result: nothing fell back, nothing failed
    assert t("boardroom.not_reviewed") not in shown and t("boardroom.unreviewed") not in shown
    (synthesis,) = (out / "wiki").rglob("synthesis.md")
    url = synthesis.absolute().as_uri()
    # The compact block's "full report" links the synthesis; the last word links it too.
    report = f"{t('boardroom.full_report')}: {t('boardroom.page_synthesis')} ("
    assert report in shown and url.split("/wiki/")[0] in shown.split(report)[1].split(")")[0]
    (last,) = [line for line in shown.splitlines() if line.startswith("🏁")]
    assert last.endswith("synthesis.md")
    reviewer = f"{t('boardroom.reviewed_by')}: Claude (claude-opus-4-5)."
    text = synthesis.read_text(encoding="utf-8")
    assert f"> {reviewer}" in text and reviewer in shown  # the page and the block name the model
    recording = recording_for("boardroom", language)
    advice = task_object(recording.turns[-1].reply)
    assert str(advice["review"]) in text and str(advice["guardrails"][-1]) in text  # type: ignore[index]
    round_log = (synthesis.parent / "round-log.md").read_text(encoding="utf-8")
    assert all(entry.reply in round_log for entry in recording.turns[:-1])  # every character
    assert str(advice["review"]) in round_log  # the review; its fields are the synthesis's
    assert "⟦" not in text and "⟦" not in shown  # no key left unfilled
    assert f"({ADVISOR_ID})" not in shown and "(Claude (" not in shown  # no id, no doubled name


@pytest.mark.parametrize("language", ["pt-BR", "ko"])
def test_the_boardroom_s_own_titles_are_in_the_debate_s_language(
    tmp_path: Path, language: str
) -> None:
    out = tmp_path / "demo"
    assert run_demo(out, 0.0, plain_console(io.StringIO()), "boardroom", language) == 0
    (synthesis,) = (out / "wiki").rglob("synthesis.md")
    pages = [synthesis, *synthesis.parent.glob("round-*/*.md")]
    titles = [line for page in pages for line in page.read_text("utf-8").splitlines()]
    headings = [line for line in titles if line.startswith(("# ", "## ", "| ", "title:"))]
    english = re.compile(r"\b(Round|Vote|Tracker|Insight|Guardrails)\b")
    assert headings and not [h for h in headings if english.search(h)], headings


def test_the_portuguese_demo_reads_the_seed_s_page(tmp_path: Path) -> None:
    screen = io.StringIO()
    out = tmp_path / "demo"
    assert run_demo(out, 0.0, plain_console(screen), format_name="boardroom", language="pt-BR") == 0
    shown = screen.getvalue()
    assert "AG (arquiteto) · Claude (revisor de segurança) · Gemini (product owner)" in shown
    assert "⚖️ A decisão em votação: Adotar um outbox no Postgres" in shown
    assert "DEBATE CONCLUÍDO" in shown and "Resultado: MAIORIA" in shown
    assert "Gemini: NÃO → CONDICIONAL" in shown  # the vote tracker of the compact block
    (synthesis,) = (out / "wiki").rglob("synthesis.md")
    text = synthesis.read_text(encoding="utf-8")
    assert "| Agente | Voto na Rodada 1 | Voto Final | Mudou? | Motivo da mudança |" in text
    assert "| Gemini | NÃO | CONDICIONAL | sim | O argumento do AG" in text
    pages = {p.relative_to(synthesis.parent).as_posix() for p in synthesis.parent.rglob("*.md")}
    assert {"round-1/ag.md", "round-2/gemini.md", "agenda.md", "round-log.md"} <= pages
