"""`debate-room demo` writes the decision as an Architecture Decision Record, `adr.md`, beside
its pages: for every format in every language a complete MADR record (YAML front matter, every
section filled or marked not applicable, in the debate's language), filled from what the
format produced, its links reaching the pages written."""

from __future__ import annotations

import datetime
import io
import re
from pathlib import Path

import pytest

from bot.demo.replay import recording_for
from bot.demo.runner import ADR_NAME, replay
from handlers.core.formats.adversarial.contract import sections as role_sections
from handlers.core.formats.boardroom.pages import synthesis_of
from handlers.core.formats.ledger.text import LEDGER, ledger_items
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import Debate
from tests.bot.console.conftest import plain_console
from tests.tools.wiki.adr_support import check_complete, front_matter, options_of

_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _from_the_format(name: str, debate: Debate) -> tuple[str, ...]:
    """What the format itself produced that the Decision Outcome must carry (read from its
    stored outputs, not from the record the ADR is built from)."""
    if name == "free":
        assert debate.ending.conclusion is not None
        return (debate.ending.conclusion.decision,)
    if name == "boardroom":
        return (str(synthesis_of(debate)["recommendation"]),)
    if name == "adversarial":
        return (role_sections(debate.output_of("answer:reconciler") or "")["THESIS"],)
    items = ledger_items(debate.output_of(LEDGER) or "")
    return tuple(wording for _, part, wording in items if part == "agreed")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", ["free", "boardroom", "adversarial", "ledger"])
async def test_adr_the_demo_writes_a_complete_madr_record_per_format(
    tmp_path: Path, name: str, language: str
) -> None:
    recording = recording_for(name, language)
    screen = io.StringIO()
    result = await replay(plain_console(screen, width=400), tmp_path, 0.0, recording)
    t, debate = Strings(language), result.debate
    assert t("adr.written", path=tmp_path / ADR_NAME) in screen.getvalue()  # says where it is
    text = (tmp_path / ADR_NAME).read_text(encoding="utf-8")

    meta = front_matter(text)
    assert meta["status"] == "accepted"  # every recording reaches its decision
    assert isinstance(meta["date"], datetime.date)
    assert meta["decision-makers"] and all(isinstance(m, str) for m in meta["decision-makers"])
    assert f"\n# {debate.proposal.topic.strip()}\n" in text

    bodies = check_complete(text, t)
    outcome = _one_line(bodies["adr.outcome"])
    assert outcome.startswith(t("adr.chosen", option="", because="").split("“")[0])
    for produced in _from_the_format(name, debate):
        assert _one_line(produced) in outcome, produced
    assert len(options_of(text, t)) >= 2  # the options weighed, each with its own section
    assert t("adr.not_applicable") not in bodies["adr.consequences"]

    linked = _LINK.findall(bodies["adr.more"])
    assert linked, bodies["adr.more"]
    for target in linked:  # every page, by its path from adr.md, as written
        assert (tmp_path / target).is_file(), target
    assert {(tmp_path / target).resolve() for target in linked} == {
        path.resolve() for page, path in result.pages.items() if not page.endswith(".svg")
    }
