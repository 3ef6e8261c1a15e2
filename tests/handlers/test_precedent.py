"""Precedents at propose: up to three kept on the proposal; a failing search leaves them out
and the card still comes."""

from __future__ import annotations

import asyncio
import logging

import pytest

from handlers.core.model import Precedent
from tests.handlers.conftest import Rig, proposal

FOUND = tuple(Precedent(f"결론 {n}", f"https://wiki.test/{n}") for n in range(5))


class Shelf:
    """A precedents search holding fixed pages (or failing)."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.asked: list[tuple[str, int]] = []

    async def search(self, text: str, limit: int) -> tuple[Precedent, ...]:
        self.asked.append((text, limit))
        if self.fail:
            raise OSError("wiki down")
        return FOUND


async def test_precedent_search_at_propose(rig: Rig) -> None:
    shelf = Shelf()
    rig.h._precedents = shelf  # the composition root passes it; the rig builds none
    made = await rig.h.propose(proposal())
    assert made is not None and made.proposal.precedents == FOUND[:3]
    assert shelf.asked == [(f"{made.proposal.topic}\n{made.proposal.question}", 3)]
    assert (await rig.h.get(made.id)).proposal.precedents == FOUND[:3]  # stored with it


async def test_precedent_search_failing_leaves_the_card(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.h._precedents = Shelf(fail=True)
    with caplog.at_level(logging.WARNING):
        made = await rig.h.propose(proposal())
    assert made is not None and made.proposal.precedents == ()
    await asyncio.wait_for(rig.h.wait_idle(made.id), 10)
    assert rig.room.cards == [made.id]  # the card still comes
    assert "precedents: the search failed" in caplog.text
