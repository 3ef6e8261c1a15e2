"""The adversarial result as people read it: the reconciliation table's rows hold the points
about their own issue (a concession shows as conceded), the closing block's caveats stand under
their own heading, and the Cost section names the model each role really ran on."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from handlers.core.formats.adversarial.audit import Audit, Evidence, Tier, route
from handlers.core.formats.adversarial.result import Answers, render_result, render_summary
from handlers.core.formats.adversarial.rules import ADVERSARIAL
from handlers.core.formats.adversarial.seats import LIGHT_MODEL, TIER_MODELS, on_tiers, tier_lines
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Debate, ParsedReply, Turn, TurnMeta
from handlers.core.participants import DEFAULT_ROSTER
from tests.handlers.adversarial_script import validator
from tests.handlers.core.test_state_machine import debate

# The English demo's answers (handlers/core/formats/adversarial/demo/en.json), cut to what the
# table reads: two rulings share E2, the Challenger concedes E1 and cites no E1 point.
ADVOCATE = """[POSITION] FOR
[EVIDENCE]
1. E1: the payment commit and a Redis XADD are two systems, so only the event is lost.
2. E4: even with AOF everysec, Redis can lose up to a second of writes.
3. E5: there are two consumers, so progress can be kept per consumer with cursors.
4. E2: table growth is contained by daily partitions dropped after 8 days.
[CONFIDENCE] INFERRED"""
CHALLENGER = """[POSITION] AGAINST
[STRUCTURAL] against=E2,E3 (2); conceded-support=E1 (1); gaps=none; assumptions=none
[EVIDENCE]
1. E2: 1 s polling adds hundreds of ms of delay for both consumers.
2. E3: Streams consumer groups give per-consumer progress out of the box.
3. Most of the team finds Streams easier.
[ALTERNATIVE] a relay worker XADDs outbox rows to Redis Streams
[CONCESSIONS] E1 is right: publishing straight from the payment transaction opens a gap.
[CONFIDENCE] INFERRED"""
RECONCILER = """[VERDICT] MODIFY
[THESIS] Adopt the outbox.
[POINT-BY-POINT]
The gap between commit and publish: Advocate — both sides grant E1; only an INSERT closes the gap
Delivery delay: Challenger — E2's polling delay is real, so measuring comes first
Consumer progress: Advocate — E5's two consumers are served by a cursor table, E3 brings back E4
Table growth: Advocate — E2's growth is contained by dropping daily partitions
[REJECTED-ARGUMENTS] none
[CONFIDENCE] INFERRED
[CAVEATS] the delay notifications accept is not decided"""
AUDIT = Audit(
    "p",
    evidence=tuple(Evidence(f"E{n}", f"fact {n}", "supports") for n in range(1, 7)),
    known_gaps=("none",),
)


def _rows(language: str) -> dict[str, list[str]]:
    """The table's rows by point: [basis, advocate, challenger, reconciler, validator]."""
    answers = Answers(ADVOCATE, CHALLENGER, RECONCILER, validator=validator())
    page = fill_keys(render_result(AUDIT, route(AUDIT, None), answers), Strings(language))
    body = page.split("|---|---|---|---|---|---|\n", 1)[1].split("\n\n", 1)[0]
    cells = [line.strip("|").split(" | ") for line in body.splitlines()]
    return {row[0].strip(): [c.strip() for c in row[1:]] for row in cells}


def test_each_row_shows_the_points_about_its_own_issue_once() -> None:
    rows = _rows("en")
    assert list(rows) == [
        "The gap between commit and publish",
        "Delivery delay",
        "Consumer progress",
        "Table growth",
    ]
    gap, delay, progress, growth = rows.values()
    assert gap[1].startswith("E1: the payment commit") and delay[1] == "-"
    assert delay[2].startswith("E2: 1 s polling") and growth[2] == "-"
    assert growth[1].startswith("E2: table growth") and growth[0] == "E2"
    assert "E5: there are two consumers" in progress[1] and "E4: even with" in progress[1]
    assert progress[2].startswith("E3: Streams consumer groups")
    # the conceded point shows as conceded, with the Challenger's words, never as "-"
    conceded = "E1 is right: publishing straight from the payment transaction opens a gap."
    assert gap[2] == f"conceded: {conceded}"
    # no point stands in two rows, and the uncited one (rejected) in none
    for side in (1, 2):
        shown = [row[side] for row in rows.values()]
        for point in (*ADVOCATE.splitlines(), *CHALLENGER.splitlines()):
            if point[:2] in ("1.", "2.", "3.", "4."):
                assert sum(point[3:40] in cell for cell in shown) <= 1
    assert not any("Most of the team" in row[2] for row in rows.values())


@pytest.mark.parametrize(("language", "conceded"), [("ko", "인정함"), ("pt-BR", "concedido")])
def test_a_concession_reads_in_the_reader_s_words(language: str, conceded: str) -> None:
    gap = _rows(language)["The gap between commit and publish"]
    assert gap[2].startswith(f"{conceded}: E1 is right")


def test_a_point_two_rows_are_equally_about_stands_in_neither() -> None:
    """Two rulings citing E2 with nothing else to tell them apart: the point is in no row (a
    guess would show it beside the wrong issue)."""
    advocate = "[EVIDENCE]\n1. E2: four seconds"
    reconciler = "[POINT-BY-POINT]\nA: Advocate — E2 holds\nB: Challenger — E2 fails"
    answers = Answers(advocate, "", reconciler)
    page = fill_keys(render_result(AUDIT, route(AUDIT, None), answers), Strings("en"))
    assert "| A | E2 | - |" in page and "| B | E2 | - |" in page


@pytest.mark.parametrize(
    ("language", "heading"), [("en", "Caveats:"), ("ko", "유의 사항:"), ("pt-BR", "Ressalvas:")]
)
def test_the_closing_block_gives_the_caveats_their_own_heading(language: str, heading: str) -> None:
    challenger = CHALLENGER.replace("E2: 1 s polling", "1 s polling")  # one uncited: rejected
    answers = Answers(ADVOCATE, challenger, RECONCILER, validator=validator())
    full = route(replace(AUDIT, high_stakes=True), None)
    assert full.tier is Tier.FULL
    lines = fill_keys(render_summary(AUDIT, full, answers), Strings(language)).splitlines()
    rejected = next(n for n, line in enumerate(lines) if line.endswith(": 2"))
    assert lines[rejected + 1] == heading  # not straight under the rejected arguments' count
    assert lines[rejected + 2] == "- the delay notifications accept is not decided"
    assert lines[rejected + 3].endswith("E3 was not weighed")  # the Validator's, too


def _turn(number: int, seat: str, model: str) -> Turn:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    parsed = ParsedReply(opinion="x")
    return Turn(1, number, 1, seat, "x", "x", "0", parsed, TurnMeta(model=model), at)


def _seated(tier: Tier) -> Debate:
    """A FULL debate started in English, each Claude role on its tier's model."""
    options = ((TIER_MODELS["mid-tier"], "sonnet"), (TIER_MODELS["top-tier"], "opus"))
    options += ((LIGHT_MODEL, "gemini-flash-latest"),)
    proposed = debate(roster=DEFAULT_ROSTER, format="adversarial", options=options)
    english = replace(proposed, setup=replace(proposed.setup, language="en"))
    return on_tiers(ADVERSARIAL.start(english, random.Random(1)).debate, tier)


def _lines(seated: Debate, turns: tuple[Turn, ...]) -> list[str]:
    return [fill_keys(line, Strings("en")) for line in tier_lines(seated, Tier.FULL, turns)]


def test_the_cost_section_names_the_model_each_role_ran_on() -> None:
    seated = _seated(Tier.FULL)
    order = seated.floor.order
    models = ("gemini-2.5-pro", "claude-sonnet-4-5")
    reported = (_turn(1, order[0], models[0]), _turn(2, order[1], models[1]))
    lines = _lines(seated, reported)
    names = {AG: "AG", CLAUDE: "Claude"}
    first, second = (f"{names[s]}, {m}" for s, m in zip(order, models, strict=False))
    assert lines[0] == f"mid-tier: Advocate ({first}), Challenger ({second})"
    # the Reconciler reported nothing yet: the model it was seated on (its tier's)
    assert lines[1] == "top-tier: Reconciler (opus)"
    light = "lightweight: Probe 1, Probe 2, Validator (moderator model, gemini-flash-latest)"
    assert lines[2] == light
    unreported = _lines(seated, ())
    claude_role = "Advocate" if order[0] == CLAUDE else "Challenger"
    assert f"{claude_role} (Claude, sonnet)" in unreported[0]  # its tier's model, on the CLI
    # only a seat whose model nobody knows says so
    assert "its backend's own model" in unreported[0] and "Claude, its backend" not in unreported[0]


def test_an_id_conceded_in_the_structural_line_alone_still_shows_as_conceded() -> None:
    """No [CONCESSIONS] text to show: the row of the conceded id says "conceded (E1)"."""
    challenger = CHALLENGER.replace(
        "[CONCESSIONS] E1 is right: publishing straight from the payment transaction opens a gap.",
        "[CONCESSIONS] none",
    )
    answers = Answers(ADVOCATE, challenger, RECONCILER, validator=validator())
    page = fill_keys(render_result(AUDIT, route(AUDIT, None), answers), Strings("en"))
    row = next(line for line in page.splitlines() if line.startswith("| The gap"))
    assert row.split(" | ")[3] == "conceded (E1)"
