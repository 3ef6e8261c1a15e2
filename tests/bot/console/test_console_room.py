"""The ConsoleRoom: colour-coded, whole replies, printed once even when a step runs again."""

from __future__ import annotations

import hashlib
import io
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from rich.console import Console

from bot.console.room import ConsoleRoom
from bot.console.seats import Typed
from handlers.core.effects import AskUser, Notify, PostCard
from handlers.core.formats.adversarial.audit import Audit, Evidence, route
from handlers.core.formats.adversarial.words import audit_notice
from handlers.core.i18n import Strings
from handlers.core.model import (
    AG,
    CLAUDE,
    Conclusion,
    Debate,
    Floor,
    PeopleLine,
    Phase,
    Proposal,
    Setup,
    Stance,
    Turn,
    TurnMeta,
    UserQuestion,
)
from handlers.core.reply.parser import parse_reply
from tests.doubles import TOPIC, FakeClock
from tests.effects import concluded, posted
from tools.store.db import Database
from tools.store.room_messages import RoomMessages

T = Strings("ko")
GREEN, BLUE, AMBER = "38;2;46;204;113", "38;2;52;152;219", "38;2;245;166;35"


class PageLinks:
    """The only part of the Wiki port the runner reads for the room: the pages' links."""

    def page_url(self, debate: Debate, page: str) -> str:
        return f"file:///wiki/{debate.id}/{page}.md"


def debate(phase: Phase = Phase.SPEAKING) -> Debate:
    proposal = Proposal(1, TOPIC, "어떤 캐시?", "이유", 0.9, "alice: ...", (1, 2))
    return Debate(
        id=3,
        proposal=proposal,
        phase=phase,
        created_at=datetime(2026, 11, 29, tzinfo=UTC),
        setup=Setup(4),
        floor=Floor(round=1, speaker=AG),
    )


def turn(number: int, seat: str, text: str) -> Turn:
    return Turn(
        3,
        number,
        1,
        seat,
        text,
        text,
        hashlib.sha256(text.encode()).hexdigest(),
        parse_reply(text),
        TurnMeta(model="m", latency_s=3.2),
        datetime.now(UTC),
    )


@pytest.fixture
async def db(database_target: str) -> AsyncIterator[Database]:
    """The store on SQLite, then on PostgreSQL."""
    database = await Database.open(database_target)
    yield database
    await database.close()


def colour_console(out: io.StringIO) -> Console:
    return Console(
        file=out, width=80, force_terminal=True, color_system="truecolor", highlight=False
    )


async def test_turns_are_colour_coded_and_whole(db: Database) -> None:
    out = io.StringIO()
    room = ConsoleRoom(
        colour_console(out),
        T,
        FakeClock(),
        messages=RoomMessages(db),
        typed=Typed(frozenset((AG, CLAUDE))),
    )
    long_text = " ".join(f"[문단{n}] {'가나다라 ' * 40}" for n in range(25))  # ~5,000 chars
    await room.show(debate(), *posted(turn(1, AG, long_text)))
    ag = out.getvalue()
    out.seek(0), out.truncate()
    await room.show(
        debate(), *posted(turn(2, CLAUDE, '```json\n{"opinion": "B", "stance": "agree"}\n```'))
    )
    claude = out.getvalue()

    assert GREEN in ag and BLUE not in ag
    assert BLUE in claude and GREEN not in claude
    assert long_text in ag  # one piece: not cut, not re-wrapped, "[...]" not read as markup
    assert T(f"discord.stance_{Stance.AGREE.value}") in claude


async def test_a_repeated_post_prints_nothing_again(db: Database) -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    room = ConsoleRoom(console, T, FakeClock(), messages=RoomMessages(db))
    reply = turn(1, AG, "한 번만 보여야 합니다")
    assert await room.show(debate(), *posted(reply)) == ""
    await room.show(debate(), *posted(reply))
    await room.show(debate(Phase.PROPOSED), PostCard())
    # a new process (after a crash) with the same database remembers too
    again = ConsoleRoom(console, T, FakeClock(), messages=RoomMessages(db))
    await again.show(debate(), *posted(reply))
    await again.show(debate(Phase.PROPOSED), PostCard())
    shown = out.getvalue()
    assert shown.count("한 번만 보여야 합니다") == 1
    assert shown.count(T("console.card_title")) == 1


async def test_questions_are_amber_with_numbered_options_and_the_end_links_the_pages(
    db: Database,
) -> None:
    out = io.StringIO()
    room = ConsoleRoom(colour_console(out), T, FakeClock(), messages=RoomMessages(db))
    await room.show(
        debate(Phase.AWAITING_USER), AskUser(UserQuestion("운영팀이 있나요?", ("예", "아니요")))
    )
    await room.show(debate(), Notify("user.answered", (("user", "alice"), ("answer", "예"))))
    asked = out.getvalue()
    assert AMBER in asked and "1. 예" in asked and "2. 아니요" in asked
    # Links only to pages the debate wrote.
    spoke = replace(
        debate(Phase.CONCLUDED), floor=replace(debate(Phase.CONCLUDED).floor, turns=2)
    )  # but never changed the document
    conclusion = Conclusion("LRU로 시작", agreed=("운영 부담",), positions=((AG, "LRU"),))
    await room.show(spoke, *concluded(spoke, conclusion, PageLinks()))
    end = out.getvalue()
    for page in ("agenda", "round-log", "conclusion"):
        assert f"file:///wiki/3/{page}.md" in end
    assert "working-document" not in end  # never written: not linked
    assert "LRU로 시작" in end and "• 운영 부담" in end and "AG: LRU" in end
    ended = replace(
        debate(Phase.CONCLUDED),
        id=4,
        floor=replace(debate(Phase.CONCLUDED).floor, turns=2, log=((1, AG), (2, CLAUDE))),
        moderation=replace(debate(Phase.CONCLUDED).moderation, working_document="초안"),
    )
    conclusion = Conclusion("LRU로 시작", positions=((AG, "LRU"),))
    await room.show(ended, *concluded(ended, conclusion, PageLinks()))
    assert "file:///wiki/4/working-document.md" in out.getvalue()[len(end) :]


AUDIT_LINES = {  # a LITE audit without gaps: its notice, in the reader's words
    "ko": (
        "- 명제: ⟦adversarial.result.yes⟧ 그대로",  # the moderator's words, verbatim
        "- 반대 근거 명시: 아니요",
        "- 알려진 공백: 알 수 없음",
        "- 단계: LITE (범위가 정해진 양자택일, 증거=1 (6개 이하))",
        "- CONTEXT-THIN: 알려진 공백 누락: 알 수 없음으로 간주",
    ),
    "en": (
        "- Proposition: ⟦adversarial.result.yes⟧ 그대로",
        "- Opposition explicitly present: no",
        "- Known gaps: unknown",
        "- Tier: LITE (bounded binary choice, evidence=1 (<= 6))",
        "- CONTEXT-THIN: KNOWN_GAPS omitted: treated as unknown",
    ),
}


@pytest.mark.parametrize(("language", "lines"), sorted(AUDIT_LINES.items()))
async def test_the_intake_audit_notice_is_in_the_reader_s_words_and_quotes_verbatim(
    db: Database, language: str, lines: tuple[str, ...]
) -> None:
    out = io.StringIO()
    room = ConsoleRoom(
        colour_console(out), Strings(language), FakeClock(), messages=RoomMessages(db)
    )
    audit = Audit(
        "⟦adversarial.result.yes⟧ 그대로",
        evidence=(Evidence("E1", "p95", "supports"),),
        binary_choice=True,
    )
    block = audit_notice(audit, route(audit, None))
    await room.show(debate(), Notify("adversarial.audit", (("block", block),)))
    said = out.getvalue()
    assert all(line in said for line in lines), said
    assert "⟦⟦" not in said


async def test_a_question_asked_again_at_the_same_turn_is_shown_again(db: Database) -> None:
    """The adversarial intake asks for evidence again before any turn: keyed by the turn
    count, the second request was taken for a repeat of the first and never shown."""
    out = io.StringIO()
    room = ConsoleRoom(
        Console(file=out, width=80, color_system=None), T, FakeClock(), messages=RoomMessages(db)
    )
    waiting = replace(debate(), phase=Phase.AWAITING_USER)
    await room.show(waiting, AskUser(UserQuestion("증거 목록을 주세요")))
    await room.show(waiting, AskUser(UserQuestion("증거 목록을 주세요")))  # a repeat: once
    answered = replace(
        waiting,
        people=replace(waiting.people, lines=(PeopleLine("alice", "LRU", "증거 목록을 주세요"),)),
    )
    await room.show(answered, AskUser(UserQuestion("구체적인 증거가 더 필요합니다")))
    shown = out.getvalue()
    assert shown.count("증거 목록을 주세요") == 1
    assert "구체적인 증거가 더 필요합니다" in shown
