"""The format readers on hostile input: they never raise, never backtrack, read a member's own
vote over a quoted one, keep the ids people wrote, and agree only what every seat agreed."""

from __future__ import annotations

import json
import subprocess
import sys

from handlers.core.formats.adversarial.audit import (
    Audit,
    Evidence,
    Tier,
    read_audit,
    route,
    rules_audit,
)
from handlers.core.formats.adversarial.contract import (
    MAX_POINTS,
    Ruling,
    points,
    rulings,
    sections,
)
from handlers.core.formats.adversarial.result import Answers, govern
from handlers.core.formats.boardroom.reply import NO, YES, parse_contract, parse_position
from handlers.core.formats.ledger.text import fallback_ledger, ledger_items
from handlers.core.model import AG, CLAUDE
from handlers.core.poll.minority import from_output
from handlers.core.reply.parser import task_object
from tests.tools.wiki.support import debate, turn


def test_a_reply_nested_a_thousand_levels_deep_is_read_without_raising() -> None:
    deep = '{"vote": "yes", "a": ' + '{"a": ' * 1000 + "1" + "}" * 1001
    for text in (deep, f"```json\n{deep}\n```", "1. VOTE: " + deep):
        position = parse_position(text, 1)  # raised RecursionError: the ask was paid again
        assert position.vote in (None, YES)
        assert parse_contract(text).opinion == text


def test_a_member_s_own_numbered_vote_wins_over_a_vote_it_quotes() -> None:
    text = (
        "1. VOTE: YES\n"
        '2. ARGUMENT: carol answered {"vote": "no", "argument": "too costly"}; I disagree.\n'
        "3. RISKS:\n- cost\n- drift\n"
    )
    position = parse_position(text, 1)
    assert position.vote == YES
    assert position.risks == ("cost", "drift")


def test_a_reply_that_is_json_is_still_read_as_json() -> None:
    text = json.dumps({"vote": "no", "argument": "1. not this", "risks": ["a", "b"]})
    position = parse_position(text, 1)
    assert position.vote == NO and position.risks == ("a", "b")


def test_a_padded_evidence_line_cannot_make_the_audit_backtrack() -> None:
    # Today's pattern took 67-117 s on one line padded to the form's 4,000 characters; a
    # linear reader answers at once. A child process bounds the wait without a timed assert.
    code = (
        "from handlers.core.formats.adversarial.audit import rules_audit\n"
        "line = '- E1 |' + ' ' * 3990 + 'x |' + ' ' * 4 + 'nope'\n"
        "for _ in range(50): rules_audit('q', (line, 'E2 | ' + 'a |' * 1300))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=20)


def test_the_rules_audit_keeps_the_people_s_ids_any_case_and_their_gaps() -> None:
    texts = (
        "- E2 | p95 840 ms on the cache path | Supports\n* e5 | ops team of two | AGAINST",
        "KNOWN_GAPS: no load test yet; cost of a Redis cluster",
    )
    audit = read_audit(rules_audit("q", texts), "q")
    assert [(e.id, e.stance) for e in audit.evidence] == [("E2", "supports"), ("E5", "against")]
    assert audit.known_gaps == ("no load test yet", "cost of a Redis cluster")
    none = read_audit(rules_audit("q", ("E1 | a | context", "known_gaps: none")), "q")
    assert none.known_gaps == ()


def test_an_audit_numbers_only_the_items_without_an_id_and_never_twice() -> None:
    data = {"evidence": [{"id": "E2", "item": "a"}, {"item": "b"}, {"id": "E2", "item": "c"}]}
    assert [e.id for e in read_audit(json.dumps(data), "q").evidence] == ["E2", "E1", "E3"]


def test_the_rules_ledger_agrees_nothing_when_one_side_never_answered() -> None:
    said = json.dumps({"opinion": "o", "agreed": ["LRU is enough"], "contested": ["TTL"]})
    one_side = fallback_ledger(debate(), (turn(1, said, AG),))
    assert json.loads(one_side)["agreed"] == []
    assert "LRU is enough" in json.loads(one_side)["open"]
    both = fallback_ledger(debate(), (turn(1, said, AG), turn(2, said, CLAUDE)))
    assert json.loads(both)["agreed"] == ["LRU is enough"]


def test_line_readers_stay_linear_on_floods_of_their_own_marks() -> None:
    # Each reader once scanned every line (or every mark) with a pattern, or re-read a long
    # line for every candidate on it; a child process bounds the wait without a timed assert.
    code = (
        "from handlers.core.formats.adversarial.contract import sections, rulings\n"
        "from handlers.core.formats.boardroom.reply import parse_position, parse_contract\n"
        "for text in (' ' * 500_000 + '1.' * 250_000, '[A' * 500_000, '1.\\n' * 300_000,\n"
        "             ' \\n' * 500_000, 'a: ' + ' ' * 200_000 + '-x'):\n"
        "    sections(text); rulings(text); parse_position(text, 1); parse_contract(text)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=30)


def test_prefix_sections_and_rulings_read_as_the_seed_writes_them() -> None:
    text = (
        "preamble\n  [THESIS] LRU first \n  more\n[EVIDENCE]\n- E1 p95\n[THESIS] again\n"
        "[POINT-BY-POINT]\n- Cost: Advocate — cheaper to run\nno ruling here\n"
    )
    found = sections(text)
    assert found["THESIS"] == "LRU first\n  more"  # the first occurrence wins
    assert found["EVIDENCE"] == "- E1 p95"
    ruled = rulings(found["POINT-BY-POINT"])
    assert ruled[0] == Ruling("Cost", "Advocate", "cheaper to run")
    assert ruled[1] == Ruling("no ruling here", "-", "-")


def test_a_moderator_answer_nested_too_deep_reads_as_no_answer() -> None:
    """Found by bench/simulate.py: the ledger's Conclusion page parsed the moderator's answer
    with a bare json.loads, so `[[[…` a thousand deep raised RecursionError at every start and
    the page was never written. Every task reader now reads through `task_object`."""
    for deep in ("[" * 1000 + "]" * 1000, '{"sides": ' + "[" * 1000 + "]" * 1000 + "}"):
        assert task_object(deep) == {}
        assert ledger_items(deep) == ()
        assert read_audit(deep, "p").evidence == ()
        assert from_output(debate(), (turn(1, AG, "x"),), deep).sides == ()


def test_a_task_answer_is_read_bare_fenced_or_inside_prose() -> None:
    want = {"agreed": ["A"]}
    for text in (
        '{"agreed": ["A"]}',
        '```json\n{"agreed": ["A"]}\n```',
        'Here: {"agreed": ["A"]}.',
    ):
        assert task_object(text) == want


def test_a_section_of_thousands_of_points_keeps_every_word() -> None:
    # Past MAX_POINTS the rest of the section is its last point, whole: numbers included.
    many = "".join(
        f"{i}. p{i:05d} cites E{i % 7}\n\n  more of {i}  \n" for i in range(3 * MAX_POINTS)
    )
    found = points(many)
    assert len(found) == MAX_POINTS
    assert found[:2] == ("p00000 cites E0 more of 0", "p00001 cites E1 more of 1")
    rest = " ".join(found[MAX_POINTS - 1 :])
    assert rest.startswith(f"p{MAX_POINTS - 1:05d}") and rest.endswith(
        f"more of {3 * MAX_POINTS - 1}"
    )
    assert all(f"p{i:05d} cites" in rest for i in range(MAX_POINTS - 1, 3 * MAX_POINTS))
    ruled = rulings("".join(f"P{i}: Advocate — E{i} holds\n" for i in range(3 * MAX_POINTS)))
    assert len(ruled) == MAX_POINTS and ruled[0] == Ruling("P0", "Advocate", "E0 holds")
    assert ruled[-1].winner == "-" and ruled[-1].point.endswith(
        f"P{3 * MAX_POINTS - 1}: Advocate — E{3 * MAX_POINTS - 1} holds"
    )


def test_a_long_run_of_spaces_mid_line_is_kept_and_trailing_space_dropped() -> None:
    # A search for space before a newline tried a run that ends mid-line from each of its
    # spaces (its length squared): trailing space is now found after newlines, backwards.
    run = " " * 100_000
    found = sections(f"[THESIS] a{run}b{run}\n[EVIDENCE] 1. E1\t \r\n 2. E2{run}")
    assert found == {"THESIS": f"a{run}b", "EVIDENCE": "1. E1\n 2. E2"}


def test_every_uncited_point_is_rejected_once_however_many_the_sides_make() -> None:
    # Told apart by a budget past which only equal points are one: none is lost, both
    # sides' copies of one point are still one line.
    audit = Audit("p", evidence=(Evidence("E1", "fact", "supports"),))
    made = "[EVIDENCE]\n" + "".join(f"- point {i:06d}\n" for i in range(MAX_POINTS))
    answers = Answers(advocate=made, challenger=made, reconciler="[VERDICT] ADOPT")
    rejected = govern(audit, route(audit, Tier.STANDARD), answers).rejected
    assert len(rejected) == MAX_POINTS
    assert all(f"point {i:06d}" in line for i, line in enumerate(rejected))
