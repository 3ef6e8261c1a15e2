"""The live claim board: kept from the moderator's judgements (no extra request), ids C1, C2,
..., holders and status; every debater's next brief carries it; the Conclusion page ends with
the final table."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from handlers.core.effects import AskDebater
from handlers.core.events import ProposalApproved
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import (
    AG,
    CLAUDE,
    Action,
    Conclusion,
    Debate,
    Decision,
    Floor,
    Moderation,
    Phase,
    Setup,
)
from handlers.core.moderation.claims import Claim, ClaimStatus, ClaimUpdate, updated
from handlers.prompting import compose_turn_prompt
from tests.handlers.conftest import ALICE, Rig, proposal
from tools.wiki.pages import render_conclusion

OPEN, CONTESTED, AGREED = ClaimStatus.OPEN, ClaimStatus.CONTESTED, ClaimStatus.AGREED
IDS = (AG, CLAUDE)


def test_claim_updates_add_with_ids_and_change_status_only() -> None:
    first = updated(
        (),
        (ClaimUpdate("", "LRU면 충분하다", CLAUDE), ClaimUpdate("", "Redis가 필요하다", AG)),
        IDS,
    )
    assert first == (
        Claim("C1", "LRU면 충분하다", (CLAUDE,), OPEN),
        Claim("C2", "Redis가 필요하다", (AG,), OPEN),
    )
    later = updated(
        first,
        (
            ClaimUpdate("c1", "다른 문구", AG, AGREED),  # a known id: status and holder only
            ClaimUpdate("C2", "", CLAUDE, CONTESTED),
            ClaimUpdate("", "", AG),  # nothing to add
            ClaimUpdate("C9", "운영 인력이 부족하다", "nobody"),  # unknown id: a new claim
        ),
        IDS,
    )
    assert later == (
        Claim("C1", "LRU면 충분하다", (CLAUDE, AG), AGREED),
        Claim("C2", "Redis가 필요하다", (AG, CLAUDE), CONTESTED),
        Claim("C3", "운영 인력이 부족하다", (), OPEN),
    )


async def test_the_claim_board_follows_judgements_briefs_and_conclusion(rig: Rig) -> None:
    rig.moderator.enqueue(
        Decision(action=Action.CONTINUE, claims=(ClaimUpdate("", "LRU면 충분하다", AG),)),
        Decision(action=Action.CONTINUE),  # no update: no new board post
        Decision(action=Action.CONTINUE, claims=(ClaimUpdate("C1", "", CLAUDE, AGREED),)),
    )
    made = await rig.h.propose(proposal())
    assert made is not None
    await asyncio.wait_for(rig.h.wait_idle(made.id), 10)
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(made.id), 10)

    debate = await rig.h.get(made.id)
    assert debate.moderation.claims == (
        Claim("C1", "LRU면 충분하다", (AG, CLAUDE), AGREED, turn=3),
    )
    assert rig.room.claim_tables == [
        (Claim("C1", "LRU면 충분하다", (AG,), OPEN, turn=1),),
        (Claim("C1", "LRU면 충분하다", (AG, CLAUDE), AGREED, turn=3),),
    ]
    assert len(rig.moderator.views) == 6  # the board cost no extra request
    requests = {r.turn: r.prompt for d in rig.debaters.values() for r in d.requests}
    assert "C1" not in requests[1] and "C1 [ag] open: LRU면 충분하다" in requests[2]
    assert "C1 [ag, claude] agreed: LRU면 충분하다" in requests[4]

    page = render_conclusion(debate, Conclusion(decision="LRU"), Strings("ko"))
    table = page.split(f"## {Strings('ko')('wiki.claims.title')}")[1]
    # the standing in the page's language, not the stored value
    assert "| C1 | LRU면 충분하다 |" in table and f"| {Strings('ko')('claims.agreed')} |" in table
    assert "agreed" not in table


def _board_at_turn_6() -> Debate:
    """Six turns in (AG spoke at 1, 3, 5; Claude at 2, 4, 6), the board changed by the
    judgements of turns 1 (C1), 2 (C2), 4 (C2 agreed) and 5 (C3)."""
    return Debate(
        id=3,
        proposal=proposal(),
        phase=Phase.SPEAKING,
        created_at=datetime(2026, 12, 2, tzinfo=UTC),
        setup=Setup(4),
        floor=Floor(round=4, turns=6, log=tuple((n, AG if n % 2 else CLAUDE) for n in range(1, 7))),
        moderation=Moderation(
            claims=(
                Claim("C1", "LRU면 충분하다", (AG,), OPEN, turn=1),
                Claim("C2", "Redis가 필요하다", (CLAUDE, AG), AGREED, turn=4),
                Claim("C3", "무효화 전략이 먼저다", (AG,), OPEN, turn=5),
            )
        ),
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_brief_carries_the_board_changes_since_the_seats_last_turn(language: str) -> None:
    board = _board_at_turn_6()
    ag = compose_turn_prompt(board, AskDebater(seat=AG, turn=7, round=4), None, language)
    assert "C3 [ag] open" in ag  # judged after its turn 5
    assert "C1 " not in ag and "C2 " not in ag  # unchanged since its turn 5: it has them
    at_5 = replace(
        board, floor=replace(board.floor, turns=5, log=board.floor.log[:5])
    )  # Claude last spoke at turn 4
    claude = compose_turn_prompt(at_5, AskDebater(seat=CLAUDE, turn=6, round=3), None, language)
    assert "C2 [claude, ag] agreed" in claude and "C3 " in claude and "C1 " not in claude
    again = compose_turn_prompt(board, AskDebater(seat=CLAUDE, turn=8, round=4), None, language)
    assert all(
        f"{claim.id} [" not in again for claim in board.moderation.claims
    )  # nothing new since 6


def test_a_first_turn_or_a_new_session_gets_the_whole_board() -> None:
    board = _board_at_turn_6()
    fresh = AskDebater(seat=AG, turn=7, round=4, fresh_session=True)
    newcomer = replace(
        board,
        floor=replace(
            board.floor, log=tuple((n, who) for n, who in board.floor.log if who == CLAUDE)
        ),
    )
    for given, ask in ((board, fresh), (newcomer, AskDebater(seat=AG, turn=7, round=4))):
        prompt = compose_turn_prompt(given, ask, None, "ko")
        assert all(f"{claim.id} [" in prompt for claim in board.moderation.claims)
