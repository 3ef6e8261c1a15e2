"""Once started, the bot's garbage collector skips what start-up made and runs less often."""

from __future__ import annotations

import gc
import logging
import weakref
from collections.abc import Iterator

import pytest

from bot.collector import YOUNG_THRESHOLD, settle_after_start


@pytest.fixture
def collector() -> Iterator[None]:
    """The interpreter's collector as it was, after the test."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("collector")
def test_start_up_objects_are_frozen_and_young_ones_collected_less_often(
    caplog: pytest.LogCaptureFixture,
) -> None:
    made_at_start_up = [[n] for n in range(1000)]  # long-lived containers
    gc.unfreeze()
    before = gc.get_threshold()
    with caplog.at_level(logging.INFO, logger="bot.collector"):
        settle_after_start()
    assert gc.get_freeze_count() >= len(made_at_start_up)
    scanned = {id(obj) for obj in gc.get_objects()}  # every generation a collection looks at
    assert not any(id(made) in scanned for made in made_at_start_up)
    assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
    assert "start-up objects frozen" in caplog.text


@pytest.mark.usefixtures("collector")
def test_cyclic_garbage_made_after_start_up_is_still_collected() -> None:
    settle_after_start()

    class Node:
        partner: object

    first, second = Node(), Node()
    first.partner, second.partner = second, first
    gone = weakref.ref(first)
    del first, second
    made_since = [[] for _ in range(3 * YOUNG_THRESHOLD)]  # the young generation fills up
    assert gone() is None  # collected on its own, no gc.collect() needed
    assert len(made_since) == 3 * YOUNG_THRESHOLD
