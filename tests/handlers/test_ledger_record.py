"""The ledger's record beside its turns (seed 004's setup files): the topic page holds the
shared prompt, the stance assignments and the grounding sources the proposal and the people
gave ("none given" in words when there are none); the participants record maps each seat's
identifier to its human label and what ran it (backend, model); the Agenda names the format
in the debate's own words."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from handlers.core.formats.keys import fill_keys
from handlers.core.formats.ledger.rules import LEDGER_FORMAT
from handlers.core.formats.ledger.text import diagram
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import AG, CLAUDE, Added, Debate
from tests.handlers.conftest import Rig
from tests.handlers.test_ledger import confirming, said
from tests.tools.wiki.support import debate
from tools.wiki.pages import render_agenda

OPEN = (("ledger.end", "open"), ("ledger.stance", "neutral"))
CONVERGE = (("ledger.end", "converge"), ("ledger.stance", "assigned"))
RFC = "https://www.rfc-editor.org/rfc/rfc9111"
RUNBOOK = "https://wiki.example/runbook/cache"


def ledger_debate(context: str, added: tuple[Added, ...] = ()) -> Debate:
    base = debate()
    return replace(
        base,
        proposal=replace(base.proposal, context=context),
        setup=replace(base.setup, format="ledger", options=CONVERGE, added=added),
    )


def test_the_topic_page_lists_each_grounding_source_with_who_gave_it() -> None:
    given = ledger_debate(
        f"alice: see {RFC}.\ncarol: our notes {RUNBOOK} and {RFC} again",
        (Added("ledger.sources", 7, "bob", "https://example.org/bench"),),
    )
    t = Strings("en")
    _, page = LEDGER_FORMAT.render_page(given, "topic", ())
    shown = fill_keys(page, t)
    head, _, listed = shown.partition(f"## {t('ledger.sources')}\n\n")
    assert f"## {t('ledger.standpoints')}" in head and "alice: see" in head  # the prompt
    assert listed.splitlines() == [
        f"- {RFC} (alice)",
        f"- {RUNBOOK} (carol)",
        "- https://example.org/bench (bob)",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_topic_without_sources_says_none_were_given_in_its_words(language: str) -> None:
    t = Strings(language)
    _, page = LEDGER_FORMAT.render_page(ledger_debate("alice: no link here"), "topic", ())
    shown = fill_keys(page, t)
    assert shown.rstrip().endswith(f"## {t('ledger.sources')}\n\n- {t('ledger.sources_none')}")
    assert "⟦" not in shown


async def test_the_participants_record_maps_each_seat_to_its_label_and_what_ran_it(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "p.sqlite3", format="ledger", options=OPEN, language="en", max_rounds=1)
    for seat in (AG, CLAUDE):
        rig.debaters[seat].enqueue(said(seat, 1))
    await rig.start()
    try:
        debate_id = await rig.debate_to_end()
        t = Strings("en")
        title, page = (fill_keys(part, t) for part in rig.wiki.pages[debate_id]["participants"])
        assert title.endswith(f"— {t('ledger.page_participants')}")
        assert f"| `ag` | AG | {t('ledger.backend_ag_relay')} | ag-model |" in page
        assert f"| `claude` | Claude | {t('ledger.backend_claude_cli')} | claude-model |" in page
        block = re.search(r"```json\n(.*?)\n```", page, re.DOTALL)
        assert block is not None
        assert json.loads(block[1]) == {
            "ag": {"label": "AG", "backend": "ag-relay", "model": "ag-model"},
            "claude": {"label": "Claude", "backend": "claude-cli", "model": "claude-model"},
        }
        assert rig.wiki.keys[f"{debate_id}:page:participants"] == 1
        assert "participants" in LEDGER_FORMAT.pages(await rig.h.get(debate_id))
    finally:
        await rig.stop()


async def test_a_two_party_ledger_writes_its_participants_record_with_its_closing_pages(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "c.sqlite3", format="ledger", options=CONVERGE, max_rounds=1)
    for seat in (AG, CLAUDE):
        rig.debaters[seat].enqueue(said(seat, 1), confirming())
    await rig.start()
    try:
        debate_id = await rig.debate_to_end()
        page = fill_keys(rig.wiki.pages[debate_id]["participants"][1], Strings("ko"))
        assert "| `claude` | Claude | Claude Code 명령줄 도구 | claude-model |" in page
    finally:
        await rig.stop()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_agenda_names_the_ledger_format_in_the_debate_s_words(language: str) -> None:
    t = Strings(language)
    page = render_agenda(ledger_debate("alice: x"), t)
    shown = page.partition(f"## {t('wiki.agenda.format')}\n\n")[2].split("\n\n")[0]
    assert shown == t("wiki.agenda.format_ledger") and "`ledger`" not in page
    assert t("front.format_ledger") in shown  # the name the card gives it, explained


def test_the_rules_diagram_has_its_own_background_and_high_contrast_labels() -> None:
    given = ledger_debate("alice: x")
    counts = {"agreed": 2, "amendments": 1, "open": 0}
    svg = diagram(given, counts)
    width = re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', svg)
    assert width is not None
    background = f'<rect width="{width[1]}" height="{width[2]}" fill="#ffffff"/>'
    assert svg.index(background) < svg.index("<text")  # painted first, under everything
    labels = re.findall(r'<text [^>]*fill="(#[0-9a-f]{6})"[^>]*>([^<]*)</text>', svg)
    boxes = re.findall(r'<rect x="[^"]+" y="[^"]+" [^>]*fill="(#[0-9a-f]{6})"', svg)
    assert [text for _, text in labels] == ["AG", "Claude", "A 2 · M 1 · Q 0"]  # no new claim
    for (ink, _), box in zip(labels, boxes, strict=True):
        assert _contrast(ink, box) >= 7  # WCAG AAA, legible in light and dark themes


def _contrast(one: str, two: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
