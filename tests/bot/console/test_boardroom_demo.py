"""`debate-room demo --format boardroom`: a recorded boardroom debate in Portuguese through the
real engine, SQLite, the wiki outbox with the local wiki, and the console room (no tokens)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.demo.replay import recording_for
from bot.demo.runner import run_demo
from handlers.core.formats.boardroom.reply import parse_position
from tests.bot.console.conftest import plain_console


def test_the_boardroom_recording_is_a_complete_panel() -> None:
    recording = recording_for("boardroom", "pt-BR")
    assert recording.format_name == "boardroom" and recording.language == "pt-BR"
    assert len(recording.roster) == 3 and all(m.persona for m in recording.roster)
    for entry in recording.turns:
        found = parse_position(entry.reply, 1 if entry.turn <= 3 else 2)
        assert found.vote is not None, entry.turn
    assert set(recording.tasks) == {"decision", "synthesis", "advisor"}


def test_the_boardroom_demo_replays_and_writes_the_synthesis(tmp_path: Path) -> None:
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
    assert "| Agente | Voto Round 1 | Voto Final | Mudou? | Motivo da mudança |" in text
    assert "| Gemini | NÃO | CONDICIONAL | sim | O argumento do AG" in text
    assert "> Revisado pelo advisor" in text  # the recording's review of the draft
    pages = {p.relative_to(synthesis.parent).as_posix() for p in synthesis.parent.rglob("*.md")}
    assert {"round-1/ag.md", "round-2/gemini.md", "agenda.md", "round-log.md"} <= pages
    recording = recording_for("boardroom", "pt-BR")
    round_log = (synthesis.parent / "round-log.md").read_text(encoding="utf-8")
    assert all(entry.reply in round_log for entry in recording.turns)  # every character
