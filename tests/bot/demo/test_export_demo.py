"""The demo writes the one-file export beside its database, for a Conclusion and for a format
that closes itself; and the export holds the format's whole record: every page the wiki holds
but the ones that only repeat one participant's answers (the transcript has those)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import replay
from handlers.core.formats import format_named
from handlers.core.i18n import Strings
from handlers.core.model import WikiPage
from handlers.core.reply.parser import parse_reply
from tests.bot.console.conftest import plain_console

_LINKED_FILE = re.compile(r"\]\(([^)\s]+)\.md\)")  # the local wiki links a page as its file


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


def _lines(text: str) -> list[str]:
    """A page's lines as the export may carry them: headings at any level, links by name."""
    return [_LINKED_FILE.sub(r"](\1)", line).lstrip("#").strip() for line in text.splitlines()]


@pytest.mark.parametrize(
    ("name", "language", "record"),
    [
        ("free", "ko", ("working-document",)),
        ("boardroom", "pt-BR", ("synthesis",)),
        ("adversarial", "en", ("debate-result",)),
        ("ledger", "ko", ("topic", "conclusion", "participants", "front-page")),
    ],
)
async def test_export_holds_the_format_s_whole_record_as_its_wiki_has_it(
    tmp_path: Path, name: str, language: str, record: tuple[str, ...]
) -> None:
    recording = recording_for(name, language)
    result = await replay(plain_console(io.StringIO(), width=400), tmp_path, 0.0, recording)
    debate = result.debate
    text = (tmp_path / f"debate-{debate.id}.md").read_text(encoding="utf-8")
    exported = set(_lines(text))
    assert format_named(name).record_page(debate) in (*record, WikiPage.CONCLUSION.value)
    at = []
    for page, path in result.pages.items():
        wiki = path.read_text(encoding="utf-8")
        title = ""
        if wiki.startswith("---\n"):  # the local wiki's front matter holds the title
            head, wiki = wiki[4:].split("\n---\n", 1)
            title = head.removeprefix('title: "').removesuffix('"')
        if page not in record:  # the agenda, the transcript, the Outcome, one seat's answers
            assert not title or f"\n## {title}\n" not in text, title
            continue
        if title:  # each record page whole, in the reader's language, under its wiki title
            assert f"\n## {title}\n" in text, title
            at.append(text.index(f"\n## {title}\n"))
        missing = [line for line in _lines(wiki) if line and line not in exported]
        assert not missing, (page, missing[:3])
    assert len(at) == len(record)
    assert at == sorted(at)  # in the format's order
    assert "<svg" not in text  # a diagram is a file the front page links to, not pasted in
