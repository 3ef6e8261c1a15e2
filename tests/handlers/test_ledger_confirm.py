"""A ratified ledger is ratified (seed 004, two-party): once the ledger is written, both
debaters see it as written and confirm or amend each item, in one bounded round; the Conclusion
calls agreed only what both confirmed, and what one side did not confirm is listed as open,
with who did not confirm it and the wording proposed instead."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from handlers.core.formats.keys import fill_keys
from handlers.core.formats.ledger.confirm import confirmation
from handlers.core.formats.ledger.rules import LEDGER_FORMAT
from handlers.core.formats.ledger.schemas import LedgerConfirmation
from handlers.core.formats.ledger.text import ledger_items
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Debate, Outcome, Phase
from tests.handlers.conftest import Rig
from tests.handlers.doubles import reply
from tests.handlers.test_ledger import confirming, front
from tests.tools.wiki.support import debate, turn

EN = Strings("en")
CONVERGE = (("ledger.end", "converge"), ("ledger.stance", "assigned"))
WRITTEN = {
    "agreed": ["LRU is enough below three instances.", "A TTL of five seconds at most."],
    "amendments": ["Redis only once a shared cache is measured to pay off."],
    "open": ["Who runs a Redis cluster?"],
}
CLAUDE_S = "A TTL of ten seconds at most, measured per key."


def agreeing(who: str) -> str:
    """A whole ledger turn that agrees."""
    return reply(f"{who}: agreed", "agree", agreed=["LRU"], contested=[], concessions=[])


async def _run(rig: Rig) -> Debate:
    await rig.start()
    debate_id = await rig.debate_to_end()
    return await rig.h.get(debate_id)


async def test_both_sides_confirm_the_written_ledger_and_only_what_both_confirm_is_agreed(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "c.sqlite3", format="ledger", options=CONVERGE, language="en")
    rig.debaters[AG].enqueue(agreeing("AG"), confirming("A1", "A2", "M1"))
    rig.debaters[CLAUDE].enqueue(agreeing("Claude"), confirming("A1", "M1", A2=CLAUDE_S))
    rig.moderator.enqueue_task("ledger", json.dumps(WRITTEN))
    rig.moderator.enqueue_task("front-page", front(["A1", "M1", "Q1", "Q2"]))
    try:
        done = await _run(rig)
        assert done.phase is Phase.CONCLUDED and done.ending.outcome is Outcome.CONSENSUS
        # One round, no more: each side answered its turn and the one confirmation.
        for seat in (AG, CLAUDE):
            turn_ask, confirm_ask = rig.debaters[seat].requests
            assert WRITTEN["agreed"][0] not in turn_ask.prompt  # not written yet
            for item_id, _, wording in ledger_items(json.dumps(WRITTEN)):
                assert f"{item_id}: {wording}" in confirm_ask.prompt  # the ledger as written
            assert "`confirmed`" in confirm_ask.prompt and "`amended`" in confirm_ask.prompt
        assert "ledger.confirming" in rig.room.notice_keys()
        pages = rig.wiki.pages[done.id]
        ledger = fill_keys(pages["conclusion"][1], EN)
        agreed, _, rest = ledger.partition(f"## {EN('ledger.amendments')}")
        assert f"**A1** {WRITTEN['agreed'][0]}" in agreed
        assert WRITTEN["agreed"][1] not in agreed  # Claude did not confirm it: not agreed
        assert f"**M1** {WRITTEN['amendments'][0]}" in rest
        opened = rest.partition(f"## {EN('ledger.open')}")[2]
        assert f"**Q1** {WRITTEN['open'][0]}" in opened
        assert f"**Q2** {WRITTEN['agreed'][1]} — *{EN('ledger.unconfirmed_by')}: Claude*" in opened
        assert f"{EN('ledger.amendment_by')} (Claude): “{CLAUDE_S}”" in opened
        assert EN("ledger.confirmed_note") in ledger
        assert rig.wiki.keys[f"{done.id}:page:conclusion"] == 1  # written once, confirmed
        # The front page is asked for the confirmed ledger, the open item said as such.
        asked = rig.moderator.tasks[-1].prompt
        assert f"Q2: {WRITTEN['agreed'][1]} (not confirmed by Claude" in asked
        assert CLAUDE_S in asked
        closing = fill_keys(rig.room.summaries[0], EN)
        assert f"❓ **Q2** {WRITTEN['agreed'][1]} — *{EN('ledger.unconfirmed_by')}: Claude*" in (
            closing
        )
        assert "✅ **A2**" not in closing
    finally:
        await rig.stop()


async def test_a_side_that_confirms_nothing_leaves_every_claim_open_after_one_repair(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "n.sqlite3", format="ledger", options=CONVERGE, language="en")
    mine = confirming("A1", "A2", "M1")
    rig.debaters[AG].enqueue(agreeing("AG"), mine)
    rig.debaters[CLAUDE].enqueue(agreeing("Claude"), "I would rather not.", "Still no.")
    rig.moderator.enqueue_task("ledger", json.dumps(WRITTEN))
    try:
        done = await _run(rig)
        assert done.phase is Phase.CONCLUDED
        asks = rig.debaters[CLAUDE].requests
        assert len(asks) == 3  # its turn, the confirmation, one repair: then it stands
        assert "confirmed" in asks[2].prompt and mine not in asks[2].prompt  # not AG's answer
        assert len(rig.debaters[AG].requests) == 2
        ledger = fill_keys(rig.wiki.pages[done.id]["conclusion"][1], EN)
        agreed = ledger.partition(f"## {EN('ledger.open')}")[0]
        assert "**A1**" not in agreed and "**M1**" not in agreed
        for n, wording in enumerate((*WRITTEN["agreed"], *WRITTEN["amendments"]), start=2):
            assert f"**Q{n}** {wording} — *{EN('ledger.unconfirmed_by')}: Claude*" in ledger
    finally:
        await rig.stop()


def test_a_confirmation_is_read_from_its_contract_or_from_a_person_s_own_words() -> None:
    block = {"opinion": "Read.", "confirmed": ["a1", "M1"], "amended": {"A2": "Ten seconds."}}
    said = turn(5, f"```json\n{json.dumps(block)}\n```", AG)
    assert confirmation(said) == (("A1", "M1"), (("A2", "Ten seconds."),))
    listed = {**block, "amended": [{"id": "M1", "wording": "Measured first."}]}
    assert confirmation(turn(5, f"```json\n{json.dumps(listed)}\n```", AG)) == (
        ("A1",),
        (("M1", "Measured first."),),
    )
    person = turn(5, "I confirm A1 and M1.\nA2: ten seconds at most", AG)
    assert confirmation(person) == (("A1", "M1"), (("A2", "ten seconds at most"),))
    korean = turn(5, "A1과 M1을 그대로 확인합니다.\nA2: 10초 이하", AG)
    assert confirmation(korean) == (("A1", "M1"), (("A2", "10초 이하"),))
    assert set(LedgerConfirmation.model_fields) == {"opinion", "confirmed", "amended"}


def test_the_estimate_counts_the_confirmation_round_of_a_two_party_ledger() -> None:
    two = replace(debate(), setup=replace(debate().setup, format="ledger", options=CONVERGE))
    rounds = two.setup.max_rounds
    assert LEDGER_FORMAT.estimate(two) == (2 * rounds + 2, 3)  # each side confirms once
    opened = replace(two, setup=replace(two.setup, options=(("ledger.end", "open"),)))
    assert LEDGER_FORMAT.estimate(opened) == (2 * rounds, 3)
