"""The engine's invariants for every format, checked on a test format whose steps ask three
participants at once: answers stored as they arrive, a crash between any two answers asks
again only the missing ones and posts nothing twice, Stop ends every running participant,
and no brief carries what the format hides."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from handlers.core.events import ProposalApproved, StopRequested
from handlers.core.model import AG, CLAUDE, GEMINI, Backend, FailureKind, Participant, Phase
from handlers.core.state_machine import transition
from handlers.ports import DebaterError
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.core.test_state_machine import NOW, debate
from tests.handlers.duo_format import registered
from tests.handlers.panel_format import HIDDEN, PANEL

TRIO = (
    Participant(AG, Backend.AG_RELAY, "AG"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini"),
)


@pytest.fixture(autouse=True)
def panel() -> Iterator[None]:
    with registered(PANEL, keep=None):
        yield


def panel_rig(path: Path) -> Rig:
    return Rig(path, roster=TRIO, format=PANEL.name, ticking_store=True)


async def _open(rig: Rig) -> int:
    debate = await rig.h.propose(proposal())
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    return debate.id


async def test_a_step_asks_its_participants_at_once(tmp_path: Path) -> None:
    rig = panel_rig(tmp_path / "panel.sqlite3")
    await rig.start()
    started: set[str] = set()
    everyone = asyncio.Event()

    def waits_for_all(who: str) -> Callable[[], Awaitable[None]]:
        async def wait() -> None:
            started.add(who)
            if len(started) == len(TRIO):
                everyone.set()
            await everyone.wait()  # asked one after another, the first would wait forever

        return wait

    for member in TRIO:
        rig.debaters[member.id].enqueue(waits_for_all(member.id))
    try:
        debate_id = await _open(rig)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED
        turns = await rig.h._turns.last_turns(debate_id, 100)
        assert [t.number for t in turns] == [1, 2, 3, 4, 5, 6]
        assert {t.seat for t in turns if t.round == 1} == {AG, CLAUDE, GEMINI}
        assert {t.seat for t in turns if t.round == 2} == {AG, CLAUDE, GEMINI}
        assert rig.room.conclusions and len(rig.room.conclusions) == 1
    finally:
        await rig.stop()


async def test_a_brief_never_carries_what_the_format_hides(tmp_path: Path) -> None:
    rig = panel_rig(tmp_path / "hidden.sqlite3")
    await rig.start()
    try:
        debate_id = await _open(rig)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        turns = {t.number: t for t in await rig.h._turns.last_turns(debate_id, 100)}
        first_round = [t for t in turns.values() if t.round == 1]
        for member in TRIO:
            requests = {r.turn: r for r in rig.debaters[member.id].requests}
            isolated = next(r for r in requests.values() if r.turn <= 3)
            informed = next(r for r in requests.values() if r.turn > 3)
            assert all(t.text not in isolated.prompt for t in first_round), member.id
            for turn in first_round:
                visible = turn.seat not in (member.id, HIDDEN.get(member.id))
                assert (informed.prompt.count(turn.text) == 1) is visible, (member.id, turn.seat)
    finally:
        await rig.stop()


async def _count_calls(tmp_path: Path) -> int:
    rig = panel_rig(tmp_path / "dry.sqlite3")
    await rig.start()
    try:
        debate_id = await _open(rig)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
    finally:
        await rig.stop()
    return rig.plan.calls


async def test_a_crash_between_any_two_answers_asks_only_the_missing_ones(tmp_path: Path) -> None:
    total = await _count_calls(tmp_path)
    assert total > 25
    between: list[set[int]] = []  # what was stored when a crash fell inside a step
    for at in range(1, total + 1):
        rig = panel_rig(tmp_path / f"crash-{at}.sqlite3")
        rig.plan.at = at
        await rig.start()
        try:
            debate_id = await _open(rig)
            await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
            where = f"crash at call {at} ({rig.plan.log[at - 1]})"
            assert rig.plan.fired, where
            stored = {t.number for t in await rig.h._turns.last_turns(debate_id, 100)}
            if stored & {1, 2, 3} not in (set(), {1, 2, 3}) or stored & {4, 5, 6} not in (
                set(),
                {4, 5, 6},
            ):
                between.append(stored)
            asked_before = {m: len(d.requests) for m, d in rig.debaters.items()}
            await rig.rebuild()
            await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)

            assert (await rig.h.get(debate_id)).phase is Phase.CONCLUDED, where
            turns = await rig.h._turns.last_turns(debate_id, 100)
            assert sorted(t.number for t in turns) == [1, 2, 3, 4, 5, 6], where
            for member, double in rig.debaters.items():
                again = {r.turn for r in double.requests[asked_before[member] :]}
                assert not again & stored, f"{where}: {member} asked again for {again & stored}"
            assert sorted(rig.room.turn_posts.items()) == [
                ((debate_id, n), 1) for n in range(1, 7)
            ], where
            assert all(count == 1 for count in rig.wiki.keys.values()), where
            assert len(rig.room.conclusions) == 1, where
        finally:
            await rig.stop()
    assert len(between) >= 4, between  # crashes did fall between a step's answers


async def test_stop_during_a_parallel_step_ends_every_running_participant(
    tmp_path: Path,
) -> None:
    rig = panel_rig(tmp_path / "stop.sqlite3")
    await rig.start()
    started: set[str] = set()
    ended: set[str] = set()
    everyone = asyncio.Event()

    def hangs(who: str) -> Callable[[], Awaitable[None]]:
        async def hang() -> None:
            started.add(who)
            if len(started) == len(TRIO):
                everyone.set()
            try:
                await asyncio.Event().wait()
            finally:
                ended.add(who)

        return hang

    for member in TRIO:
        rig.debaters[member.id].enqueue(hangs(member.id))
    try:
        debate_id = await _open(rig)
        await asyncio.wait_for(everyone.wait(), 10)
        await rig.h.submit(debate_id, StopRequested(ALICE))
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        assert ended == {AG, CLAUDE, GEMINI}
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.STOPPED and debate.floor.asked == ()
        assert await rig.h._turns.last_turns(debate_id, 100) == ()
        assert len(rig.room.conclusions) == 1
    finally:
        await rig.stop()


async def test_a_participant_skipped_in_a_parallel_step_leaves_the_others_standing(
    tmp_path: Path,
) -> None:
    rig = panel_rig(tmp_path / "skip.sqlite3")
    gone = DebaterError(FailureKind.UNREACHABLE, "no route")
    rig.debaters[GEMINI].enqueue(gone, gone, gone)  # the first try and both retries
    await rig.start()
    try:
        debate_id = await _open(rig)
        await asyncio.wait_for(rig.h.wait_idle(debate_id), 10)
        debate = await rig.h.get(debate_id)
        assert debate.phase is Phase.CONCLUDED
        turns = await rig.h._turns.last_turns(debate_id, 100)
        first = sorted((t.number, t.seat) for t in turns if t.round == 1)
        assert first == [(1, AG), (2, CLAUDE)]
        second = sorted((t.number, t.seat) for t in turns if t.round == 2)
        # The skipped ask's number was never stored: the next step takes it up again.
        assert second == [(3, AG), (4, CLAUDE), (5, GEMINI)]
        assert "debater.skipped" in rig.room.notice_keys()
        assert [r.turn for r in rig.debaters[GEMINI].requests] == [3, 3, 3, 5]
    finally:
        await rig.stop()


def test_approval_takes_a_format_only_if_the_roster_can_run_it() -> None:
    proposed = debate()
    duo = transition(proposed, ProposalApproved(ALICE, (), "panel"), NOW, random.Random(1))
    assert duo.debate.setup.format == "free" and duo.debate.phase is Phase.SPEAKING  # needs three
    trio = transition(proposed, ProposalApproved(ALICE, TRIO, "panel"), NOW, random.Random(1))
    assert trio.debate.setup.format == "panel" and len(trio.debate.floor.asked) == 3
    unknown = transition(proposed, ProposalApproved(ALICE, TRIO, "nonesuch"), NOW, random.Random(1))
    assert unknown.debate.setup.format == "free"
