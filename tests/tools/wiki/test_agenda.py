"""The Agenda page: the people by name, no model named for the moderator, whole-or-marked
context quotes, and no terminal escape codes."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from handlers.core.formats import format_named
from handlers.core.formats.adversarial.briefs import EVIDENCE
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import (
    AG,
    CLAUDE,
    GEMINI,
    Added,
    Backend,
    ChatLine,
    Debate,
    Participant,
    Phase,
    Proposal,
    Setup,
)
from handlers.detection import CONTEXT_LINE_CHARS, heard
from tools.wiki.pages import render_agenda, visible

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def agenda_of(lines: list[ChatLine], language: str = "ko") -> str:
    context, people, names = heard(lines)
    proposal = Proposal(
        channel_id=1,
        topic="캐시",
        question="어떤 캐시?",
        reason="이유",
        confidence=0.9,
        context=context,
        people_ids=people,
        people_names=names,
    )
    debate = Debate(
        id=1, proposal=proposal, phase=Phase.SPEAKING, created_at=T0, setup=Setup(4, started_at=T0)
    )
    return render_agenda(debate, Strings(language))


def test_the_people_are_named_and_no_model_is_named_for_the_moderator() -> None:
    page = agenda_of(
        [
            ChatLine(1001, "앨리스", "Redis로 갈까 LRU로 갈까", T0),
            ChatLine(1002, "bob", "장단점이 애매하네", T0),
            ChatLine(1001, "앨리스", "토론해 보자", T0),
        ]
    )
    assert "대화 참여자: 앨리스, bob" in page
    assert "1001" not in page and "1002" not in page
    assert "Gemini Flash" not in page  # in rules mode the moderator is no model
    assert "Gemini Flash" not in agenda_of([ChatLine(1, "a", "x", T0)], "en")


def test_a_long_chat_line_is_marked_where_it_is_cut_and_escape_codes_are_kept_visible() -> None:
    long = "가" * (CONTEXT_LINE_CHARS + 50)
    page = agenda_of(
        [ChatLine(1, "앨리스", long, T0), ChatLine(2, "bob", "\x1b[32m녹색\x1b[0m", T0)]
    )
    quoted = next(line for line in page.splitlines() if line.startswith("> 앨리스: "))
    shown = quoted.removeprefix("> 앨리스: ")
    kept, _, note = shown.partition("… (+")  # the cut says so, and how much is left out
    assert note.endswith(")") and len(shown) == CONTEXT_LINE_CHARS
    assert set(kept) == {"가"} and len(kept) + int(note[:-1].replace(",", "")) == len(long)
    # The page as the outbox writes it: a terminal's colour code shown, not dropped.
    assert "> bob: \\u001b[32m녹색\\u001b[0m" in visible(page) and "\x1b" not in visible(page)


def test_the_evidence_added_on_the_card_is_on_the_agenda_verbatim() -> None:
    proposal = Proposal(
        channel_id=1,
        topic="캐시",
        question="어떤 캐시?",
        reason="",
        confidence=1,
        context="앨리스: 캐시?",
        people_ids=(1,),
    )
    added = "p99 120 ms\nCONSTRAINTS: 월 예산 10만 원 이하"
    debate = Debate(
        id=1,
        proposal=proposal,
        phase=Phase.SPEAKING,
        created_at=T0,
        setup=Setup(
            4,
            options=(("ledger.end", "open"),),
            added=(Added(EVIDENCE, 1, "alice", added), Added(EVIDENCE, 2, "carol", "메모리 2 GB")),
        ),
    )
    page = render_agenda(debate, Strings("ko"))
    assert f"## {Strings('ko')('wiki.agenda.added_adversarial_evidence')}" in page
    assert "alice: p99 120 ms" in page and "CONSTRAINTS: 월 예산 10만 원 이하" in page
    assert "carol: 메모리 2 GB" in page  # every sender's, under their name
    assert "ledger.end" not in page and "open" not in page.split("##")[-1]
    bare = render_agenda(replace(debate, setup=replace(debate.setup, added=())), Strings("ko"))
    assert "p99 120 ms" not in bare


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_seat_is_named_once_with_its_role(language: str) -> None:
    roster = (
        Participant(AG, Backend.AG_RELAY, "AG", persona="arquiteto"),
        Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude", persona="revisor"),
        Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"),
    )
    debate = Debate(
        id=1,
        proposal=Proposal(1, "t", "q", "r", 0.9, "ctx", (1,)),
        phase=Phase.SPEAKING,
        created_at=T0,
        setup=Setup(2, roster=roster, format="boardroom", started_at=T0),
    )
    agenda = render_agenda(debate, Strings(language))
    line = next(line for line in agenda.splitlines() if "arquiteto" in line)
    assert ") (" not in line and "(Gemini) (" not in line
    assert "AG (arquiteto)" in line and "(revisor)" in line
    assert line.count("AG") == 1 and line.count("Claude") == 1
    card = format_named("boardroom").card_roster(debate, {m.id: m.name for m in roster})
    assert card.splitlines()[0] == "AG (arquiteto) · Claude (revisor) · Gemini"  # then the squad
