"""Every demo's wiki pages and closing messages are its goldens byte for byte (a change to what
people read is a reviewed diff: rewrite them with `python -m tests.golden --update`), and each
format's pages hold its seed document's sections in order, by their headings in the debate's
language."""

from __future__ import annotations

import re

import pytest

from handlers.core.formats import format_named
from handlers.core.model import WikiPage
from tests.golden.replays import DEMOS, Replayed, replayed
from tests.golden.store import differences, expected, stored
from tools.wiki.pages import page_title


@pytest.mark.parametrize(("name", "language"), DEMOS)
def test_golden_pages_and_closing_messages_are_the_replay_s(name: str, language: str) -> None:
    assert stored(name, language), (
        f"no goldens for {name}.{language}: python -m tests.golden --update"
    )
    found = differences(name, language, expected(replayed(name, language)))
    if found:
        pytest.fail(found, pytrace=False)


def _in_order(page: str, starts: list[str]) -> None:
    """Each of `starts` begins a line of `page` (its heading marks aside), in this order."""
    lines = [line.lstrip("#").strip() for line in page.splitlines()]
    at = 0
    for start in starts:
        found = next((i for i in range(at, len(lines)) if lines[i].startswith(start)), None)
        assert found is not None, f"{start!r} is missing, or not after {lines[at - 1]!r}"
        at = found + 1


def _title(page: str) -> str:
    """A local wiki page's title, from its front matter."""
    head = page.split("\n---\n", 1)[0]
    return head.removeprefix('---\ntitle: "').removesuffix('"')


def _free(demo: Replayed) -> None:
    """Seed 002's wiki: Agenda, Working-Document, Round-Log (every turn, in order), Conclusion."""
    t, debate = demo.t, demo.debate
    order = (WikiPage.AGENDA, WikiPage.WORKING_DOCUMENT, WikiPage.ROUND_LOG, WikiPage.CONCLUSION)
    assert format_named("free").pages(debate) == tuple(p.value for p in order)
    for page in order:
        title = page_title(debate.proposal.topic, page, t)
        assert _title(demo.pages[f"{page.value}.md"]) == title
    section = re.escape(t("wiki.round_log.section", round="\x01", turn="\x02", speaker="\x03"))
    heading = section.replace("\x01", r"(\d+)").replace("\x02", r"(\d+)").replace("\x03", ".+")
    found = re.findall(f"^## {heading}$", demo.pages["round-log.md"], re.MULTILINE)
    assert [int(turn) for _, turn in found] == [e.turn for e in demo.recording.turns]
    assert [int(r) for r, _ in found] == sorted(int(r) for r, _ in found)


def _boardroom(demo: Replayed) -> None:
    """Seed 000's synthesis template, section by section."""
    t = demo.t
    bold = ("date", "squad", "agents")
    starts = [
        f"**{t(f'boardroom.{k}')}:**" if k in bold else t(f"boardroom.{k}") for k in _BOARDROOM
    ]
    _in_order(demo.pages["synthesis.md"], starts)


_BOARDROOM = (
    "synthesis_title",
    "date",
    "squad",
    "agents",
    "tracker",
    "result",
    "changes",
    "tensions",
    "insight",
    "conditions",
    "recommendation",
)


def _adversarial(demo: Replayed) -> None:
    """Seed 003's output format, from the Debate Result to its cost."""
    t = demo.t
    words = {key: t(f"adversarial.result.{key}") for key in _ADVERSARIAL}
    bold = ("proposition", "tier", "intake_status")
    starts = [f"**{words[k]}:**" if k in bold else words[k] for k in _ADVERSARIAL]
    _in_order(demo.pages["debate-result.md"], starts)


_ADVERSARIAL = (
    "title",
    "proposition",
    "tier",
    "intake_status",
    "audit",
    "verdict",
    "points",
    "rejected",
    "survives",
    "skipped",
    "confidence",
    "validation",
    "caveats",
    "cost",
    "agents_spawned",
    "tiers_used",
)


def _ledger(demo: Replayed) -> None:
    """Seed 004's pages: a numbered page per turn, the faithful ledger (agreed claims,
    amendments, open questions), and a front page that orients (linking the turns and the
    ledger), then restates it with a metadata table, a callout, the diagram and footnotes."""
    t, pages = demo.t, demo.pages
    turns = sorted(path for path in pages if path.startswith("turns/"))
    assert len(turns) == len(demo.recording.turns)
    assert all(re.fullmatch(r"turns/\d\d-[a-z0-9-]+\.md", path) for path in turns)
    sections = ("conclusion_title", "agreed", "amendments", "open")
    _in_order(pages["conclusion.md"], [t(f"ledger.{key}") for key in sections])
    front = pages["front-page.md"]
    links = [f"]({path})" for path in (*turns, "conclusion.md")]
    orientation = next(line for line in front.splitlines() if t("ledger.orientation") in line)
    assert all(link in orientation for link in links), orientation
    head, opening = [line for line in front.split("\n---\n", 1)[1].splitlines() if line][:2]
    assert head.startswith("# ") and opening.startswith(f"**{t('ledger.orientation')}**")
    lines = front.splitlines()
    assert any(line.startswith("|---") for line in lines)  # a table
    assert any(re.match(r"> \[!(TIP|NOTE|WARNING|IMPORTANT)\]", line) for line in lines)
    assert any(line.startswith("[^") and "]: " in line for line in lines)  # footnotes
    assert "](concepts.svg)" in front and pages["concepts.svg"].startswith("<svg")  # linked


SEEDS = {"free": _free, "boardroom": _boardroom, "adversarial": _adversarial, "ledger": _ledger}


@pytest.mark.parametrize(("name", "language"), DEMOS)
def test_each_format_s_pages_hold_its_seed_s_sections_in_order(name: str, language: str) -> None:
    SEEDS[name](replayed(name, language))
