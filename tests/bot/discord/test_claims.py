"""The claim board through the real discord.py client: a second pinned message in the
thread, edited after each judgement that changes it, pinging nobody."""

from __future__ import annotations

from handlers.core.model import AG, CLAUDE, Action, Decision
from handlers.core.moderation.claims import ClaimStatus, ClaimUpdate
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import EDIT, THREADS, chat, click, posted_twice, wait_card
from tests.fakes.discord_limits import as_embed

CLAIM = "LRU면 충분하다 @everyone"


async def test_the_claim_board_is_pinned_and_edited(rig: BotRig, people: People) -> None:
    rig.moderator.decisions.extend(
        [
            Decision(action=Action.CONTINUE, claims=(ClaimUpdate("", CLAIM, AG),)),
            Decision(
                action=Action.CONTINUE,
                claims=(ClaimUpdate("C1", "", CLAUDE, ClaimStatus.CONTESTED),),
            ),
            Decision(
                action=Action.CONTINUE, claims=(ClaimUpdate("C1", "", CLAUDE, ClaimStatus.AGREED),)
            ),
        ]
    )
    await rig.start()
    assert rig.services is not None
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    thread_id = card["id"]

    board = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(as_embed(m))
            and as_embed(m).get("title") == KO("claims.title")
        )
    )
    first = KO("claims.line", id="C1", status=KO("claims.open"), holders="AG", text=CLAIM)
    assert as_embed(board)["description"] == first
    agreed = KO(
        "claims.line", id="C1", status=KO("claims.agreed"), holders="AG, Claude", text=CLAIM
    )
    await rig.fake.wait_for_call(
        "PATCH",
        EDIT,
        lambda c: (
            c.path.endswith(f"/messages/{board['id']}")
            and (c.json or {}).get("embeds", [{}])[0].get("description") == agreed
        ),
    )
    pinned = [mid for mid, _ in rig.fake.world.pins[thread_id]]
    assert board["id"] in pinned and len(pinned) == 2  # the status, and the board
    assert not rig.fake.world.was_pinged(board["id"])
    await rig.handler.wait_idle(debate_id)
    assert not await posted_twice(rig, rig.services.db, debate_id, thread_id)
