"""The card's cost estimate: every seat that runs, the ones a format adds beside the roster
(the adversarial Reconciler) included, and a seat a person types at no cost."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from bot.console.keyboard import Keyboard
from bot.console.seats import HumanDebater, Typed
from bot.formatting import cost_estimate
from handlers.core.i18n import Strings
from handlers.core.model import Backend
from handlers.core.spending.state import DEFAULT_TURN_USD
from handlers.ports import Debater
from tests.doubles import QueueLines
from tests.handlers.conftest import Rig, proposal

EN = Strings("en")


async def _card_estimate(rig: Rig) -> str:
    await rig.start()
    try:
        debate = await rig.h.propose(proposal())
        assert debate is not None
        return cost_estimate(debate, EN)
    finally:
        await rig.stop()


async def test_the_estimate_counts_the_seat_a_format_adds_beside_the_roster(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path / "e.sqlite3", format="adversarial", language="en")
    estimate = await _card_estimate(rig)
    # Six turns among AG, Claude and the Reconciler (a fresh Claude session): two each.
    claude = DEFAULT_TURN_USD[Backend.CLAUDE_CLI.value] * 2
    assert f"Reconciler ≈ ${claude:.2f}" in estimate
    assert f"Claude ≈ ${claude:.2f}" in estimate and "AG ≈ $0.00" in estimate


async def test_a_seat_a_person_types_costs_nothing(tmp_path: Path) -> None:
    def typed_claude(_: object) -> dict[Backend, Debater]:
        typed = Typed(backends=frozenset({Backend.CLAUDE_CLI}))
        keyboard = Keyboard(QueueLines())
        return {
            Backend.CLAUDE_CLI: HumanDebater(Backend.CLAUDE_CLI, typed, keyboard, Console(), EN)
        }

    rig = Rig(tmp_path / "t.sqlite3", language="en", real=typed_claude)
    estimate = await _card_estimate(rig)
    assert EN("credit.typed_seat", name="Claude") in estimate
    assert "Claude ≈" not in estimate and "AG ≈ $0.00" in estimate


async def test_with_every_seat_typed_by_people_the_card_says_there_is_no_cost(
    tmp_path: Path,
) -> None:
    def typed_both(_: object) -> dict[Backend, Debater]:
        typed = Typed(backends=frozenset({Backend.CLAUDE_CLI, Backend.AG_RELAY}))
        keyboard = Keyboard(QueueLines())
        return {
            backend: HumanDebater(backend, typed, keyboard, Console(), EN)
            for backend in (Backend.CLAUDE_CLI, Backend.AG_RELAY)
        }

    rig = Rig(tmp_path / "b.sqlite3", language="en", real=typed_both)
    assert await _card_estimate(rig) == EN("credit.all_typed")
