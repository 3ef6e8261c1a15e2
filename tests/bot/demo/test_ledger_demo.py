"""The ledger's showcase, in every language: each recording replays through the real engine
with no degraded notice, no flagged concession (every recorded quote stands in the reply it
quotes), no internal id or unfilled key, no doubled name, the format named in the reader's
words, and the thread's last word linking the ledger."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import run_demo
from handlers.core.i18n import Strings
from handlers.core.model import Turn, TurnMeta
from handlers.core.reply.parser import parse_reply
from handlers.core.turns.concessions import quoted
from tests.bot.console.conftest import plain_console
from tests.tools.wiki.support import turn

LANGUAGES = ("ko", "en", "pt-BR")
DOUBLED = re.compile(r"\([^()\n]*\([^()\n]*\)\)")  # `AG (gemini-3-pro (AG))`


def _turns(language: str) -> list[Turn]:
    recording = recording_for("ledger", language)
    return [
        replace(turn(e.turn, e.reply, e.seat), parsed=parse_reply(e.reply), meta=TurnMeta())
        for e in recording.turns
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_recorded_quote_stands_in_another_seat_s_earlier_reply(language: str) -> None:
    turns = _turns(language)
    moves = [t for t in turns if t.parsed.convinced_by]
    assert len(moves) >= 3  # the recording shows stance moves with their quotes
    for move in moves:
        others = tuple(t for t in turns if t.number < move.number and t.seat != move.seat)
        assert quoted(move.parsed.convinced_by, others), (move.number, move.parsed.convinced_by)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ledger_demo_reads_whole_in_its_language(tmp_path: Path, language: str) -> None:
    screen, t = io.StringIO(), Strings(language)
    out = tmp_path / "demo"
    assert run_demo(out, 0.0, plain_console(screen, width=200), "ledger", language) == 0
    shown = screen.getvalue()
    said = [line for line in shown.splitlines() if "file://" not in line and str(out) not in line]
    text = "\n".join(said)
    for seat in ("AG", "Claude", "Gemini"):
        assert t("concession.unquoted", seat=seat) not in shown
    assert t("degraded.line") not in shown and "⚠️" not in shown and "❌" not in shown
    assert not DOUBLED.search(shown), DOUBLED.findall(shown)
    assert "⟦" not in shown and "front-page" not in text and "ledger-" not in text
    if language != "en":  # the format's name is the reader's word
        assert "ledger" not in text.casefold(), [s for s in said if "ledger" in s.casefold()]
    last = next(line for line in reversed(shown.splitlines()) if "🏁" in line)
    outcome = t("debate.outcome_recorded", outcome=t("front.outcome_consensus"), url="")
    assert last.startswith(outcome.rstrip()) and last.endswith("/conclusion.md")
    folder = next((out / "wiki" / "debates").iterdir())
    agenda = (folder / "agenda.md").read_text(encoding="utf-8")
    assert t("wiki.agenda.format_ledger") in agenda and "`ledger`" not in agenda
    for page in folder.rglob("*.md"):
        body = page.read_text(encoding="utf-8")
        assert "⟦" not in body and not DOUBLED.search(body), page.name
    topic = (folder / "topic.md").read_text(encoding="utf-8")  # the chat's source, and who
    source = "https://example.com/postmortems/payment-incident"
    assert f"## {t('ledger.sources')}\n\n- {source} (" in topic
    front = (folder / "front-page.md").read_text(encoding="utf-8")  # the seed's toolkit shown
    quotes = re.findall(r"\n\n> (?!\[!)", front)  # a blockquote that is no callout
    assert "\n1. **" in front and quotes and "[^1]: " in front
    participants = (folder / "participants.md").read_text(encoding="utf-8")
    assert "| `ag` | AG |" in participants and "gemini-3-pro |" in participants
