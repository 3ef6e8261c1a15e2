"""Steelman, pure: pressed while AG answers turn 1, each seat owes a steelman from turn 2 on (AG's
running turn keeps its brief); each owed turn's brief asks for it, and once stored the turn is
shown as a steelman right after its post and Round-Log entry; a second press while one is owed,
or a press by someone outside the conversation, changes nothing."""

from __future__ import annotations

from dataclasses import replace

from handlers.core import effects as fx
from handlers.core.admission import Admission, admits
from handlers.core.controls import CONTROLS, control_named
from handlers.core.effects import AskDebater
from handlers.core.model import AG, CLAUDE, OpenAsk, Phase
from handlers.core.steelman.events import SteelmanRequested
from handlers.prompting import compose_turn_prompt
from tests.handlers.conftest import ALICE, BOB
from tests.handlers.core.test_state_machine import answer, speaking, step

CL = CLAUDE


def test_a_press_makes_each_seat_s_next_turn_a_steelman_shown_as_such() -> None:
    running = speaking(AG, turns=0)  # AG answers turn 1
    pressed = step(running, SteelmanRequested(ALICE))
    assert pressed.debate.steelman.due == ((AG, 2), (CL, 2))
    assert pressed.effects == (
        fx.Notify("steelman.requested", (("user", "alice"),)),
        fx.LogNote("steelman-2", "steelman", "alice", ""),
    )
    again = step(pressed.debate, SteelmanRequested(ALICE))
    assert admits(pressed.debate, SteelmanRequested(ALICE)) is Admission.NOT_NOW
    assert again.debate == pressed.debate and again.effects == ()

    first = step(pressed.debate, answer(AG, 1))  # asked before the press: not a steelman
    assert first.debate.steelman.turns == ()
    assert not any(isinstance(e, fx.Notify) and e.key == "steelman.turn" for e in first.effects)

    asking = replace(first.debate, phase=Phase.SPEAKING)
    asking = replace(asking, floor=replace(asking.floor, asked=(OpenAsk(CL, 2),), speaker=CL))
    claude = step(asking, answer(CL, 2))
    assert claude.debate.steelman.turns == (2,)
    assert claude.debate.steelman.due == ((AG, 2),)  # AG's next turn still owes it
    shown = fx.Notify("steelman.turn", (("seat", CL), ("turn", "2")))
    at = claude.effects.index(fx.AppendRoundLog(2))
    assert claude.effects[at + 1] == shown  # right after the turn's Round-Log entry
    assert claude.effects[at + 2] == fx.LogNote(
        "steelman-turn-2", "steelman_turn", claude.debate.name_of(CL), ""
    )


def test_only_the_people_of_the_conversation_or_an_approver_may_press_it() -> None:
    running = speaking(AG, turns=0)
    assert admits(running, SteelmanRequested(BOB)) is Admission.REFUSED
    assert step(running, SteelmanRequested(BOB)).debate == running
    assert admits(speaking(AG, phase=Phase.PROPOSED), SteelmanRequested(ALICE)) is (
        Admission.NOT_NOW
    )


def test_an_owed_turn_s_brief_asks_for_the_steelman_and_no_other_does() -> None:
    pressed = step(speaking(AG, turns=0), SteelmanRequested(ALICE)).debate
    owed = compose_turn_prompt(pressed, AskDebater(seat=AG, turn=3, round=2), None, "en")
    running = compose_turn_prompt(pressed, AskDebater(seat=AG, turn=1, round=1), None, "en")
    before = compose_turn_prompt(
        speaking(AG, turns=0), AskDebater(seat=AG, turn=3, round=2), None, "en"
    )
    assert "Steelman, asked for by alice" in owed
    assert "Steelman" not in running and "Steelman" not in before


def test_the_controls_are_listed_once_and_steelman_is_offered_while_none_is_owed() -> None:
    assert [c.name for c in CONTROLS] == ["stop", "skip", "steelman"]
    steelman = control_named("steelman")
    assert steelman is not None
    running = speaking(AG, turns=0)
    assert steelman.offered(running) == ((),)
    assert steelman.build(ALICE) == SteelmanRequested(ALICE)
    assert steelman.offered(step(running, SteelmanRequested(ALICE)).debate) == ()
