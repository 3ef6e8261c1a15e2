"""Honest concessions: a debater moving toward the others must quote what convinced it; the
quote is checked by code against the others' earlier replies; without one the thread says so
and the moderator is told."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from handlers.core.events import ProposalApproved
from handlers.core.model import AG, CLAUDE, Stance, Turn, TurnMeta
from handlers.core.reply.parser import parse_reply
from handlers.core.turns.concessions import moved_toward, quoted
from tests.handlers.conftest import ALICE, Rig, proposal
from tests.handlers.doubles import reply
from tools.gemini.context import judge_prompt

ARGUMENT = "세 인스턴스가 각자 캐시를 들면 무효화가 한 곳에만 닿습니다."


def _turn(seat: str, text: str) -> Turn:
    return Turn(1, 1, 1, seat, text, text, "-", parse_reply(text), TurnMeta(), datetime.now(UTC))


def test_concession_rules() -> None:
    assert moved_toward(Stance.DISAGREE, Stance.PARTIAL)
    assert moved_toward(Stance.PARTIAL, Stance.AGREE)
    assert not moved_toward(None, Stance.AGREE)  # a first stance is no move
    assert not moved_toward(Stance.AGREE, Stance.PARTIAL)
    others = (_turn(AG, f"서론.\n{ARGUMENT}\n끝."),)
    assert quoted(f"“{ARGUMENT}”", others)  # quote marks and spacing aside
    assert quoted("  세 인스턴스가 각자   캐시를 들면 ", others)
    assert not quoted("무효화", others)  # too short to be a quote
    assert not quoted("Redis가 더 싸다는 점에 설득되었습니다", others)


async def _debate(rig: Rig, claude_second: str) -> int:
    ag, claude = rig.debaters[AG], rig.debaters[CLAUDE]
    ag.enqueue(*(reply(f"{ARGUMENT} AG {n}", "disagree") for n in range(3)))
    claude.enqueue(reply("LRU로 충분합니다.", "disagree"), claude_second)
    claude.default = reply("그대로입니다.", "agree")
    made = await rig.h.propose(proposal())
    assert made is not None
    await asyncio.wait_for(rig.h.wait_idle(made.id), 10)
    await rig.h.submit(made.id, ProposalApproved(ALICE))
    await asyncio.wait_for(rig.h.wait_idle(made.id), 10)
    return made.id


async def test_concession_with_a_real_quote_passes(rig: Rig) -> None:
    debate_id = await _debate(rig, reply("설득됐습니다.", "agree", convinced_by=ARGUMENT))
    debate = await rig.h.get(debate_id)
    assert debate.floor.unquoted == ()
    assert "concession.unquoted" not in rig.room.notice_keys()


async def test_concession_without_a_quote_is_flagged_and_told(rig: Rig) -> None:
    made_up = reply("동의합니다.", "agree", convinced_by="비용이 더 싸다는 점")
    debate_id = await _debate(rig, made_up)
    debate = await rig.h.get(debate_id)
    claude_turn = next(n for n, who in debate.floor.log if who == CLAUDE and n > 2)
    assert (claude_turn, CLAUDE) in debate.floor.unquoted
    assert "concession.unquoted" in rig.room.notice_keys()
    # the moderator's next judgement is told, in its state
    later = [v for v in rig.moderator.views if v.debate.floor.turns > claude_turn]
    assert later and later[0].debate.floor.unquoted
    state = judge_prompt(later[0], "ko").messages[0][1]
    assert f"Turn {claude_turn}: Claude [claude] moved toward the others" in state
