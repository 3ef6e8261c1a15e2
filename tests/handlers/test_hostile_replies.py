"""Hostile replies through the real engine and store: each is posted once, the debate goes on."""

from __future__ import annotations

import asyncio
import hashlib
import random
import threading

from pytest import MonkeyPatch

from handlers import effects_runner
from handlers.core.events import ProposalApproved
from handlers.core.model import AG, CLAUDE, ParsedReply
from handlers.core.reply.parser import OFF_LOOP_CHARS, parse_reply
from handlers.effects_runner import parse_off_loop
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.doubles import other


async def _first_turn(rig: Rig, text: str) -> int:
    first = random.Random(rig.seed).choice((AG, CLAUDE))
    rig.debaters[first].enqueue(text)
    debate = await rig.h.propose(proposal())
    assert debate is not None
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 10)
    await rig.h.submit(debate.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(debate.id), 20)
    return debate.id


async def test_a_surrogate_escape_in_the_block_is_stored_and_posted_once(rig: Rig) -> None:
    text = '```json\n{"opinion": "U+D800 looks like \\ud800 in JSON", "stance": "agree"}\n```'
    debate_id = await _first_turn(rig, text)
    turn = await rig.h._turns.turn(debate_id, 1)
    assert turn.text == text and turn.parsed.opinion == "U+D800 looks like \\ud800 in JSON"
    assert rig.room.turn_posts[(debate_id, 1)] == 1
    assert sum(len(d.requests) for d in rig.debaters.values()) == 6  # nobody asked twice


async def test_a_lone_surrogate_in_the_raw_reply_is_stored_exactly(rig: Rig) -> None:
    text = "a lone \ud800 surrogate and a NUL \x00 in prose"
    debate_id = await _first_turn(rig, text)
    turn = await rig.h._turns.turn(debate_id, 1)
    assert turn.text == text and turn.raw == f"RAW<{text}>"
    expected = hashlib.sha256(turn.raw.encode("utf-8", "surrogatepass")).hexdigest()
    assert turn.sha256 == expected
    assert turn.parsed.opinion == "a lone \\ud800 surrogate and a NUL \\u0000 in prose"
    assert rig.room.turn_posts[(debate_id, 1)] == 1


async def test_deep_nesting_and_a_brace_flood_are_turns_not_failures(rig: Rig) -> None:
    deep = "```json\n" + '{"opinion": ' * 3000 + '"x"' + "}" * 3000 + "\n```"
    flood = '{"opinion": {"' * 30_000  # 420 KB, no block
    first = random.Random(rig.seed).choice((AG, CLAUDE))
    rig.debaters[other(first)].enqueue(flood)
    debate_id = await _first_turn(rig, deep)
    turns = await rig.h._turns.last_turns(debate_id, 100)
    assert len(turns) == 6 and {t.text for t in turns} >= {deep, flood}
    assert all(count == 1 for count in rig.room.turn_posts.values())
    assert "turn.no_block" in rig.room.notice_keys()


async def test_a_long_reply_is_parsed_in_a_worker_thread_to_the_same_result() -> None:
    text = "prose " * OFF_LOOP_CHARS + '{"opinion": "end", "stance": "agree"}'
    assert await parse_off_loop(text) == parse_reply(text)


async def test_the_loop_answers_while_a_long_reply_is_parsed(monkeypatch: MonkeyPatch) -> None:
    """A Stop pressed during the parse is served: the parse holds no loop time."""
    gate = threading.Event()
    waited: list[bool] = []

    def parse_held_until_the_loop_answers(text: str) -> ParsedReply:
        waited.append(gate.wait(10))  # False if the loop could not run meanwhile
        return parse_reply(text)

    monkeypatch.setattr(effects_runner, "parse_reply", parse_held_until_the_loop_answers)

    async def stop_pressed() -> None:
        gate.set()

    flood = '{"opinion": {"' * 30_000
    parsed, _ = await asyncio.gather(parse_off_loop(flood), stop_pressed())
    assert waited == [True] and parsed.opinion == flood
