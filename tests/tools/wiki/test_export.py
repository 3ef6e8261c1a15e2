"""The one-file export and the degraded outcome line on the Conclusion page."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

import pytest

from handlers.core.i18n import Strings
from handlers.core.model import (
    AG,
    CLAUDE,
    Conclusion,
    Debate,
    Ending,
    Floor,
    ModeratorSource,
    Outcome,
    PeopleLine,
    Phase,
    Proposal,
    Setup,
    Turn,
    TurnMeta,
)
from handlers.core.reply.parser import parse_reply
from tests.doubles import changed
from tools.wiki.export import export_markdown, export_name
from tools.wiki.pages import render_conclusion

AT = datetime(2026, 12, 2, 7, 0, tzinfo=UTC)
EN = Strings("en")


def _turn(number: int, seat: str, opinion: str) -> Turn:
    text = f'{opinion}\n```json\n{{"opinion": "{opinion}", "stance": "partial"}}\n```'
    return Turn(
        1,
        number,
        1,
        seat,
        text,
        text,
        hashlib.sha256(text.encode()).hexdigest(),
        parse_reply(text),
        TurnMeta(model=f"{seat}-model"),
        AT,
    )


def _ended(**changes: object) -> Debate:
    proposal = Proposal(1, "Cache layer", "Redis or LRU?", "r", 0.9, "alice: which cache?", (1,))
    debate = Debate(
        1,
        proposal,
        Phase.CONCLUDED,
        AT,
        setup=Setup(3),
        floor=Floor(round=1),
        ending=Ending(outcome=Outcome.VERDICT),
    )
    return changed(debate, **changes)


def test_export_holds_agenda_every_turn_the_people_the_notes_and_the_outcome() -> None:
    turns = (_turn(2, CLAUDE, "Redis scales out"), _turn(1, AG, "LRU is simpler"))
    people = (
        PeopleLine("alice", "ops can run Redis", question="Can ops run it?"),
        PeopleLine("bob", "typed in the thread"),
    )
    conclusion = Conclusion("Start with LRU", agreed=("simple first",))
    debate = _ended(people=people, notes=((1, "weigh the ops cost"),), conclusion=conclusion)
    text = export_markdown(debate, turns, EN)
    assert export_name(debate) == "debate-1.md"
    assert text.startswith("# Cache layer\n") and "Redis or LRU?" in text  # the agenda
    assert text.index("LRU is simpler") < text.index("Redis scales out")  # in turn order
    assert "AG" in text and "ag-model" in text and "2026-12-02 07:00 UTC" in text
    assert "ops can run Redis" in text and "typed in the thread" in text
    assert EN("export.note", turn=1, note="weigh the ops cost") in text
    assert "Start with LRU" in text and EN("wiki.outcome.verdict") in text
    assert EN("credit.per_seat", seats="AG $0.00 · Claude $0.00") in text
    # no hidden markers in a file but the record's chain (handlers/core/record/chain.py)
    hidden = re.findall(r"<!-- debate-room:(\S+ \S+)", text)
    assert set(hidden) == {"chain v1"} and len(hidden) == 2 + 2  # two turns, end, head


def test_export_of_a_running_debate_says_it_is_in_progress() -> None:
    text = export_markdown(_ended(outcome=None, phase=Phase.SPEAKING), (), EN)
    assert EN("wiki.outcome.unknown") in text
    assert text.count(EN("wiki.conclusion.none")) >= 3  # no turns, people or notes yet


@pytest.mark.parametrize(
    ("changes", "source", "named"),
    [
        ({"faltered": (AG,)}, ModeratorSource.GEMINI, ("AG",)),
        ({"fell_back": True}, ModeratorSource.GEMINI, ("rules",)),
        ({"faltered": (CLAUDE, AG)}, ModeratorSource.RULES, ("Claude, AG", "rules")),
        ({}, ModeratorSource.GEMINI, ()),
    ],
)
def test_degraded_conclusion_names_the_failed_seat_and_the_rules_above_the_body(
    changes: dict[str, object], source: ModeratorSource, named: tuple[str, ...]
) -> None:
    page = render_conclusion(_ended(**changes), Conclusion("LRU", source=source), EN)
    above = page[: page.index(EN("wiki.conclusion.decision"))]
    assert (EN("degraded.line") in above) is bool(named)
    for word in named:
        assert word in above


def test_every_character_is_in_the_export_and_an_escape_is_said_once() -> None:
    plain = export_markdown(_ended(), (_turn(1, AG, "LRU is simpler"),), EN)
    assert EN("export.escaped") not in plain
    people = (PeopleLine("ali\x00ce", "ops \x07can run it"),)
    debate = _ended(people=people, notes=((1, "a lone \ud800 surrogate"),))
    text = export_markdown(debate, (_turn(1, AG, "LRU\x1b[1m is simpler"),), EN)
    text.encode("utf-8")  # a file can hold it (a lone surrogate made this raise)
    assert "ali\\u0000ce" in text and "ops \\u0007can run it" in text  # were dropped
    assert "a lone \\ud800 surrogate" in text and "LRU\\u001b[1m is simpler" in text
    assert text.count(EN("export.escaped")) == 1
    raw = "a NUL \x00 in the reply"  # the parser writes it as an escape: said too
    replied = export_markdown(_ended(), (_turn(1, AG, raw),), EN)
    assert "a NUL \\u0000 in the reply" in replied and EN("export.escaped") in replied
