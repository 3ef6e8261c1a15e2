"""The ledger without its moderator: the rules build the ledger from the claims every turn
proposed, agree only what every seat holds at its latest word, and both pages say plainly that
no moderator ratified it."""

from __future__ import annotations

import json
from pathlib import Path

from handlers.core.formats.keys import fill_keys
from handlers.core.formats.ledger.text import fallback_ledger
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Phase
from tests.handlers.conftest import Rig
from tests.handlers.doubles import reply
from tests.handlers.test_ledger import confirming
from tests.tools.wiki.support import debate, turn

CONVERGE = (("ledger.end", "converge"), ("ledger.stance", "assigned"))
KO = Strings("ko")


def said(stance: str, **claims: list[str]) -> str:
    return reply(f"{stance}: steelman first", stance, **claims)


async def test_a_debate_whose_turns_propose_claims_gets_a_ledger_marked_not_ratified(
    tmp_path: Path,
) -> None:
    # The last turns propose nothing new: a ledger read from them alone was empty.
    rig = Rig(tmp_path / "rules.sqlite3", format="ledger", options=CONVERGE)
    rig.debaters[AG].enqueue(
        said("partial", agreed=["LRU first"], contested=["TTL of 60 s"], concessions=[]),
        said("agree", agreed=[], contested=[], concessions=[]),
        confirming("A1", "M1"),
    )
    rig.debaters[CLAUDE].enqueue(
        said("partial", agreed=["lru  first"], contested=[], concessions=["Redis can wait"]),
        said("agree", agreed=[], contested=[], concessions=[]),
        confirming("A1", "M1"),
    )
    await rig.start()  # nothing queued for the tasks: the moderator is unavailable
    try:
        debate_id = await rig.debate_to_end()
        assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED
        pages = rig.wiki.pages[debate_id]
        ledger = fill_keys(pages["conclusion"][1], KO)
        assert "**A1** LRU first" in ledger  # both agreed it, in their own wordings
        assert "**M1** Redis can wait" in ledger and "**Q1** TTL of 60 s" in ledger
        assert KO("ledger.not_ratified") in ledger and KO("ledger.none") not in ledger
        front = fill_keys(pages["front-page"][1], KO)
        assert KO("ledger.not_ratified") in front and "A1" in front and "Q1" in front
        assert front.startswith("# ")  # the callout sits under the title
    finally:
        await rig.stop()


async def test_a_ledger_the_moderator_wrote_carries_no_such_mark(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "ratified.sqlite3", format="ledger", options=CONVERGE)
    for seat in (AG, CLAUDE):
        whole = said("agree", agreed=["LRU first"], contested=[], concessions=[])
        rig.debaters[seat].enqueue(whole, confirming("A1"))
    ledger = {"agreed": ["LRU first"], "amendments": [], "open": []}
    rig.moderator.enqueue_task("ledger", json.dumps(ledger))
    await rig.start()
    try:
        debate_id = await rig.debate_to_end()
        pages = rig.wiki.pages[debate_id]
        assert "**A1** LRU first" in pages["conclusion"][1]
        assert "not_ratified" not in pages["conclusion"][1] + pages["front-page"][1]
    finally:
        await rig.stop()


def test_a_claim_a_seat_contests_later_is_no_longer_agreed() -> None:
    turns = (
        turn(1, said("agree", agreed=["LRU first", "TTL 60 s"]), AG),
        turn(2, said("agree", agreed=["LRU first", "TTL 60 s"]), CLAUDE),
        turn(3, said("partial", contested=["TTL 60 s"]), AG),
    )
    built = json.loads(fallback_ledger(debate(), turns))
    assert built == {"agreed": ["LRU first"], "amendments": [], "open": ["TTL 60 s"]}
