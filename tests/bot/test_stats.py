"""Each seat's record (bot/stats.py): the pure count over hand-built debates, each figure
checked, and the table people read (a code block that fits one Discord message)."""

from __future__ import annotations

import pytest

from bot.stats import MESSAGE_LIMIT, SeatRecord, StanceRow, seat_records, stats_text
from handlers.core.ending.state import Conclusion
from handlers.core.i18n import Strings
from handlers.core.kinds import Stance
from handlers.core.model import AG, CLAUDE, Debate
from handlers.core.moderation.claims import Claim, ClaimStatus
from tests.bot.stats_support import CONCEDED, ONE_SIDED, Said, built

EN, KO = Strings("en"), Strings("ko")


def _stances(debate: Debate, said: tuple[Said, ...]) -> list[StanceRow]:
    return [(debate.id, n, s.seat, s.stance) for n, s in enumerate(said, 1)]


CLAIMS = (
    Claim("C1", "an in-process LRU is enough for one instance", (AG,), ClaimStatus.AGREED),
    Claim("C2", "redis pays off past three instances", (CLAUDE,), ClaimStatus.CONTESTED),
    Claim("C3", "the TTL stays under five seconds", (CLAUDE,), ClaimStatus.OPEN),
    Claim("C4", "drop the cache", (AG,), ClaimStatus.WITHDRAWN),
    Claim("C10", "measure first", (AG, CLAUDE), ClaimStatus.OPEN),
)
# C2 named by id, C10 by its wording; C3 not at all ("C3" inside "C30" names no C3); C4 is
# named but was withdrawn.
DECISION = Conclusion(
    "Start with an LRU; Redis later, as C2 says (C30 of the last debate no longer holds). "
    "Drop the cache was rejected.",
    agreed=("Measure first, then decide",),
)


def _records() -> dict[str, SeatRecord]:
    first = built(
        CONCEDED,
        debate_id=1,
        unquoted=(4,),
        claims=CLAIMS,
        conclusion=DECISION,
        costs=((AG, 0.30), (CLAUDE, 1.20)),
    )
    # Failed: claude faltered, a limit benched AG; its agreed claim reached no outcome.
    second = built(
        ONE_SIDED,
        debate_id=2,
        faltered=(CLAUDE,),
        benched=(AG,),
        claims=CLAIMS[:1],
        costs=((CLAUDE, 0.05),),
    )
    stances = _stances(first, CONCEDED) + _stances(second, ONE_SIDED)
    return {r.seat: r for r in seat_records([first, second], stances)}


def test_each_figure_of_each_seat_over_two_debates() -> None:
    records = _records()
    assert records[AG] == SeatRecord(
        AG,
        "AG",
        debates=2,
        turns=4,
        failures=0,
        pauses=1,
        quoted=2,
        unquoted=0,
        claims=2,  # C1 (agreed), C10 (named)
        cost_usd=pytest.approx(0.30),  # type: ignore[arg-type]
    )
    assert records[CLAUDE] == SeatRecord(
        CLAUDE,
        "Claude",
        debates=2,
        turns=4,
        failures=1,
        pauses=0,
        quoted=0,
        unquoted=1,
        claims=2,  # C2 (named by id), C10 (named by its wording)
        cost_usd=pytest.approx(1.25),  # type: ignore[arg-type]
    )


def test_a_stance_left_out_is_no_move_and_the_first_stance_no_concession() -> None:
    # AG states nothing, then disagrees (a first stance), then states nothing, then agrees.
    said = (Said(AG), Said(AG, Stance.DISAGREE), Said(AG), Said(AG, Stance.AGREE))
    debate = built(said)
    (record, *_) = seat_records([debate], _stances(debate, said))
    assert (record.seat, record.quoted, record.unquoted) == (AG, 1, 0)


def test_a_seat_that_spoke_but_left_the_roster_still_counts_its_turns() -> None:
    said = (Said("gemini"), Said(AG))
    debate = built(said)
    records = {r.seat: r for r in seat_records([debate], [])}
    assert (records["gemini"].turns, records["gemini"].debates) == (1, 0)
    assert (records[AG].turns, records[AG].debates, records[CLAUDE].debates) == (1, 1, 1)


def test_the_table_shows_each_seat_s_figures_under_the_title() -> None:
    records = sorted(_records().values(), key=lambda r: r.seat)
    text = stats_text(records, 2, EN, days=30)
    lines = text.splitlines()
    assert lines[0] == EN("stats.title_days", count=2, days=30)
    assert lines[1] == "```" and lines[5] == "```"
    assert lines[2].split() == [EN(f"stats.col_{c}") for c in _COLUMN_KEYS]
    assert lines[3].split() == ["AG", "2", "4", "0", "1", "2", "0", "2", "$0.30"]
    assert lines[4].split() == ["Claude", "2", "4", "1", "0", "0", "1", "2", "$1.25"]
    assert lines[6] == EN("stats.key")
    assert len({len(line) for line in lines[2:5]}) == 1  # aligned columns


_COLUMN_KEYS = ("seat", "debates", "turns", "failures", "pauses", "quoted", "unquoted")
_COLUMN_KEYS = (*_COLUMN_KEYS, "claims", "cost")


def test_korean_names_line_up_by_their_width_on_screen() -> None:
    records = [SeatRecord("a", "보안 검토", turns=3), SeatRecord("b", "AG", turns=1)]
    block = stats_text(records, 1, KO).split("```")[1].strip("\n").splitlines()
    widths = {sum(2 if "가" <= ch <= "힣" else 1 for ch in line) for line in block}
    assert len(widths) == 1


def test_many_seats_still_fit_in_one_message_saying_how_many_are_left_out() -> None:
    records = [SeatRecord(f"s{n}", f"seat {n:03}", turns=500 - n) for n in range(120)]
    for strings in (EN, KO, Strings("pt-BR")):
        text = stats_text(records, 1000, strings)
        assert len(text) <= MESSAGE_LIMIT
        shown = sum(line.startswith(("seat 0", "seat 1")) for line in text.splitlines())
        assert 10 < shown < 120
        assert text.endswith(strings("stats.more", count=120 - shown))
        assert "seat 000" in text  # the most turns first


def test_no_debate_says_so_plainly() -> None:
    assert stats_text([], 0, EN) == EN("stats.none")
    assert stats_text([], 0, EN, days=7) == EN("stats.none_days", days=7)
    assert "7일" in stats_text([], 0, KO, days=7)
