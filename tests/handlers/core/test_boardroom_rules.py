"""The boardroom's pure rules: the result on every vote pattern, the reply contract in JSON and
in the seed's numbered layout (ko, en, pt-BR), the missing parts, the panel's size."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from handlers.core.formats import formats_for
from handlers.core.formats.boardroom.pages import (
    CONSENSUS,
    DIVIDED,
    MAJORITY,
    result,
)
from handlers.core.formats.boardroom.reply import (
    CONDITIONAL,
    NO,
    VOTES,
    YES,
    missing_parts,
    parse_position,
)
from handlers.core.formats.boardroom.rules import BOARDROOM
from handlers.core.model import Backend, Participant
from tests.handlers.boardroom_script import position, rebuttal
from tests.tools.gemini.builders import judging_debate

TABLE = [
    ([YES, YES], CONSENSUS),
    ([YES, NO], DIVIDED),
    ([NO, NO, NO], CONSENSUS),
    ([YES, YES, NO], MAJORITY),
    ([YES, NO, CONDITIONAL], DIVIDED),
    ([CONDITIONAL, CONDITIONAL, YES, NO], DIVIDED),  # two of four is not a strict majority
    ([CONDITIONAL, CONDITIONAL, CONDITIONAL, NO], MAJORITY),
    ([YES, YES, NO, NO, CONDITIONAL], DIVIDED),
    ([YES, YES, YES, NO, NO], MAJORITY),
    ([YES, None], DIVIDED),  # no vote is not a vote for anything
    ([YES, YES, None], MAJORITY),
]


@pytest.mark.parametrize(("votes", "expected"), TABLE)
def test_the_result_of_a_vote_pattern(votes: list[str | None], expected: str) -> None:
    assert result(votes) == expected


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_the_result_rule_holds_on_every_pattern(size: int) -> None:
    for votes in itertools.product(VOTES, repeat=size):
        top = max(Counter(votes).values())
        expected = CONSENSUS if top == size else MAJORITY if 2 * top > size else DIVIDED
        assert result(list(votes)) == expected, votes


@pytest.mark.parametrize("language", ["ko", "en", "pt-BR"])
@pytest.mark.parametrize("vote", VOTES)
def test_the_numbered_layout_is_understood(language: str, vote: str) -> None:
    found = parse_position(position("ag", vote, language), 1)
    assert found.vote == vote
    assert found.risks == ("ag risk one", "ag risk two")
    assert found.metrics == ("ag metric one", "ag metric two")
    assert "main reasoning of ag" in found.argument and "works while" in found.conditions
    assert missing_parts(found, 1) == ()
    final = parse_position(rebuttal("ag", vote, language, why="convinced by Claude"), 2)
    assert final.vote == vote and final.why_changed == "convinced by Claude"
    assert final.insight == "Insight of ag." and missing_parts(final, 2) == ()


def test_the_seed_s_own_lines_are_read() -> None:
    assert parse_position("1. VOTO: NÃO\n2. Argumento.", 1).vote == NO
    assert parse_position("1. VOTE: YES", 1).vote == YES
    assert parse_position("**1. 투표: 조건부**\n2. 논거", 1).vote == CONDITIONAL
    assert parse_position("1. VOTO FINAL: CONDICIONAL (mudei)", 2).vote == CONDITIONAL


def test_a_json_reply_is_understood_and_wins_over_prose() -> None:
    block = {
        "vote": "sim",
        "argument": "because",
        "risks": ["r1", "r2"],
        "conditions": "c",
        "metrics": ["m1", "m2"],
    }
    text = f"Some words first.\n\n```json\n{json.dumps(block, ensure_ascii=False)}\n```"
    found = parse_position(text, 1)
    assert (found.vote, found.risks, found.metrics) == (YES, ("r1", "r2"), ("m1", "m2"))
    final = parse_position(json.dumps({"final_vote": "NÃO", "consensus_condition": "x"}), 2)
    assert final.vote == NO and final.consensus == "x"


def test_missing_parts_are_named() -> None:
    found = parse_position("1. VOTE: YES\n3. Risks\n- only one\n", 1)
    assert missing_parts(found, 1) == ("argument", "risks (2+)", "conditions", "metrics (2+)")
    assert missing_parts(parse_position("no structure at all", 2), 2)[0] == "vote"


def test_a_repair_completes_the_first_answer() -> None:
    first = parse_position("1. VOTE: NO\n2. Argument.", 1)
    later = parse_position("3. Risks\n- a\n- b", 1)
    merged = first.merged(later)
    assert merged.vote == NO and merged.argument == "Argument." and merged.risks == ("a", "b")


def test_a_squad_of_two_or_more_is_taken_and_the_card_counts_five() -> None:
    members = [Participant(f"p{n}", Backend.CLAUDE_CLI, f"P{n}") for n in range(8)]
    assert not BOARDROOM.allows(tuple(members[:1]))
    assert all(BOARDROOM.allows(tuple(members[:n])) for n in range(2, 9))
    assert "boardroom" in formats_for(tuple(members))  # eight: narrowed to five, not refused
    squad = judging_debate(roster=tuple(members))
    assert BOARDROOM.estimate(squad) == (20, 3)  # five members asked, not eight


def test_a_numbered_list_inside_a_section_stays_in_it() -> None:
    text = (
        "1. VOTE: NO\n2. Argument.\n3. Risks\n1. first\n2. second\n"
        "4. Conditions.\n5. Metrics\n1. m\n2. n\n"
    )
    found = parse_position(text, 1)
    assert found.risks == ("first", "second") and found.metrics == ("m", "n")
    assert found.conditions == "Conditions."
