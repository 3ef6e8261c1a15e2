"""Choosing a format on the card: the moderator's suggestion when the roster can run it, else
DEFAULT_FORMAT; only the people of the conversation may change it, only while the card waits;
the choice is stored (it survives a restart) and is the format the debate runs."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from handlers.core.events import FormatChosen, ProposalApproved, StopRequested
from handlers.core.model import Phase
from handlers.core.state_machine import transition
from tests.handlers.conftest import ALICE, APPROVER, BOB, CAROL, Rig, proposal
from tests.handlers.core.test_state_machine import NOW, debate
from tests.handlers.duo_format import DUO, registered
from tests.handlers.panel_format import PANEL


@pytest.fixture(autouse=True)
def more_formats() -> Iterator[None]:
    with registered(DUO, PANEL):
        yield


@pytest.mark.parametrize(
    ("suggested", "runs"),
    [("duo", "duo"), ("free", "free"), ("", "free"), ("nonesuch", "free"), ("panel", "free")],
)
async def test_the_card_starts_on_the_suggestion_the_roster_can_run(
    rig: Rig, suggested: str, runs: str
) -> None:
    # panel needs three participants: suggested to two, the card falls back to DEFAULT_FORMAT
    made = await rig.h.propose(replace(proposal(), suggested_format=suggested))
    assert made is not None and made.setup.format == runs
    assert (await rig.h.get(made.id)).setup.format == runs


async def test_a_format_not_the_default_falls_back_to_default_format(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "db.sqlite3", format="duo")  # DEFAULT_FORMAT=duo
    await rig.start()
    try:
        made = await rig.h.propose(replace(proposal(), suggested_format="nonesuch"))
        assert made is not None and made.setup.format == "duo"
    finally:
        await rig.stop()


async def test_only_the_people_choose_and_the_choice_is_what_runs(rig: Rig) -> None:
    made = await rig.h.propose(proposal())
    assert made is not None and made.setup.format == "free"
    await asyncio.wait_for(rig.h.wait_idle(made.id), 10)

    assert (
        await rig.h.submit(made.id, FormatChosen(BOB, "duo"))
    ).debate.setup.format == "free"  # an outsider
    assert (
        await rig.h.submit(made.id, FormatChosen(ALICE, "nonesuch"))
    ).debate.setup.format == "free"
    assert (
        await rig.h.submit(made.id, FormatChosen(ALICE, "panel"))
    ).debate.setup.format == "free"  # needs 3
    assert (await rig.h.submit(made.id, FormatChosen(CAROL, "duo"))).debate.setup.format == "duo"
    assert (
        await rig.h.submit(made.id, FormatChosen(APPROVER, "free"))
    ).debate.setup.format == "free"
    assert (await rig.h.submit(made.id, FormatChosen(ALICE, "duo"))).debate.setup.format == "duo"

    handler = await rig.rebuild()  # the choice is stored, not held in memory
    assert (await handler.get(made.id)).setup.format == "duo"
    opened = (await handler.submit(made.id, ProposalApproved(ALICE))).debate
    assert opened.phase is Phase.SPEAKING and opened.setup.format == "duo"
    # once the room is open the format is fixed
    assert (await handler.submit(made.id, FormatChosen(ALICE, "free"))).debate.setup.format == "duo"
    await handler.submit(made.id, StopRequested(ALICE))


def test_a_choice_is_ignored_once_the_card_is_closed() -> None:
    proposed = debate()
    chosen = transition(proposed, FormatChosen(ALICE, "duo"), NOW, random.Random(1))
    assert chosen.debate.setup.format == "duo" and chosen.effects == ()
    for phase in (Phase.DECLINED, Phase.EXPIRED, Phase.SPEAKING):
        closed = replace(proposed, phase=phase)
        after = transition(closed, FormatChosen(ALICE, "duo"), NOW, random.Random(1))
        assert after.debate == closed
