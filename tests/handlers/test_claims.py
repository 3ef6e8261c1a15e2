"""The live claim board: kept from the moderator's judgements (no extra request), ids C1, C2,
..., holders and status; every debater's next brief carries it; the Conclusion page ends with
the final table."""

from __future__ import annotations

import asyncio

from handlers.core.claims import Claim, ClaimStatus, ClaimUpdate, updated
from handlers.core.events import ProposalApproved
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Action, Conclusion, Decision
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
    assert debate.claims == (Claim("C1", "LRU면 충분하다", (AG, CLAUDE), AGREED),)
    assert rig.room.claim_tables == [
        (Claim("C1", "LRU면 충분하다", (AG,), OPEN),),
        (Claim("C1", "LRU면 충분하다", (AG, CLAUDE), AGREED),),
    ]
    assert len(rig.moderator.views) == 6  # the board cost no extra request
    requests = {r.turn: r.prompt for d in rig.debaters.values() for r in d.requests}
    assert "C1" not in requests[1] and "C1 [ag] open: LRU면 충분하다" in requests[2]
    assert "C1 [ag, claude] agreed: LRU면 충분하다" in requests[4]

    page = render_conclusion(debate, Conclusion(decision="LRU"), Strings("ko"))
    table = page.split(f"## {Strings('ko')('wiki.claims.title')}")[1]
    assert "| C1 | LRU면 충분하다 |" in table and "agreed" in table
