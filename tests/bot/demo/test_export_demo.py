"""The demo writes the one-file export beside its database, for a Conclusion and for
a format that closes itself."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import replay
from handlers.core.i18n import Strings
from handlers.core.reply.parser import parse_reply
from tests.bot.console.conftest import plain_console


@pytest.mark.parametrize("name", ["free", "ledger"])
async def test_export_the_demo_writes_the_whole_debate_in_one_file(
    tmp_path: Path, name: str
) -> None:
    recording, screen = recording_for(name), io.StringIO()
    result = await replay(plain_console(screen, width=400), tmp_path / name, 0.0, recording)
    t = Strings(recording.language)
    written = tmp_path / name / f"debate-{result.debate.id}.md"
    assert t("export.written", path=written) in screen.getvalue()
    text = written.read_text(encoding="utf-8")
    assert text.startswith(f"# {result.debate.proposal.topic.strip()}\n")
    for entry in recording.turns:  # every reply's argument, verbatim
        assert parse_reply(entry.reply).opinion.strip().splitlines()[0] in text
    assert t("credit.per_seat", seats="").split("{")[0].strip() in text
