"""Debates, turns and views for the moderator tests, and a tiny loop over the state machine."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from handlers.core.effects import Conclude, Effect, Judge
from handlers.core.events import ConclusionReady, Judged, ProposalApproved, ReplyReceived
from handlers.core.model import (
    AG,
    CLAUDE,
    Actor,
    ChatLine,
    Conclusion,
    Debate,
    Decision,
    Floor,
    ModeratorView,
    Phase,
    Proposal,
    Setup,
    Turn,
    TurnMeta,
)
from handlers.core.reply.parser import parse_reply
from handlers.core.state_machine import transition
from handlers.ports import Moderator
from tests.doubles import changed

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
ALICE = Actor(user_id=101, name="alice")


def proposal(channel: int = 1) -> Proposal:
    """The cache-layer proposal of UX.md."""
    return Proposal(
        channel_id=channel,
        topic="캐시 계층 선택 — Redis vs in-process LRU",
        question="다음 분기 배포에서 어떤 캐시 계층을 쓸 것인가?",
        reason="멀티 인스턴스 운영과 운영 부담 사이의 결정이 열려 있다.",
        confidence=0.9,
        context="alice: Redis로 갈지 LRU로 갈지\ncarol: 운영 부담이…",
        people_ids=(101, 102),
    )


def reply_text(opinion: str, stance: str | None = None, question: dict | None = None) -> str:
    """A debater reply with its JSON block."""
    block: dict[str, object] = {"opinion": opinion}
    if stance:
        block["stance"] = stance
    if question:
        block["question"] = question
    return f"```json\n{json.dumps(block, ensure_ascii=False)}\n```"


def turn(number: int, seat: str, text: str, round_: int = 1) -> Turn:
    """A stored turn as the engine keeps it."""
    return Turn(
        debate_id=1,
        number=number,
        round=round_,
        seat=seat,
        text=text,
        raw=text,
        sha256="0" * 64,
        parsed=parse_reply(text),
        meta=TurnMeta(),
        at=T0,
    )


def judging_debate(**changes: object) -> Debate:
    """A debate waiting for the moderator after turn 2 of round 1."""
    base = Debate(
        id=1,
        proposal=proposal(),
        phase=Phase.JUDGING,
        created_at=T0,
        setup=Setup(3, started_at=T0),
        floor=Floor(
            round=1, order=(AG, CLAUDE), spoken=(AG, CLAUDE), turns=2, log=((1, AG), (2, CLAUDE))
        ),
    )
    return changed(base, **changes)


def view_after(*turns: Turn, **changes: object) -> ModeratorView:
    """The moderator's view with these latest turns."""
    return ModeratorView(debate=judging_debate(**changes), last_turns=turns)


def chat(author: int, content: str, minute: float, message_id: int = 0) -> ChatLine:
    """One chat message at T0 + `minute` minutes."""
    at = T0 + timedelta(minutes=minute)
    return ChatLine(
        author_id=author, author_name=f"u{author}", content=content, at=at, message_id=message_id
    )


@dataclass
class DebateRun:
    """What a debate run through the state machine produced."""

    debate: Debate
    decisions: list[Decision] = field(default_factory=list)
    conclusion: Conclusion | None = None
    turns: list[Turn] = field(default_factory=list)


async def run_debate(moderator: Moderator, replies: list[str], max_rounds: int = 3) -> DebateRun:
    """Approve a proposal and feed `replies` in turn; the moderator judges and concludes."""
    rng = random.Random(5)
    debate = Debate(
        id=1, proposal=proposal(), phase=Phase.PROPOSED, created_at=T0, setup=Setup(max_rounds)
    )
    step = transition(debate, ProposalApproved(ALICE), T0, rng)
    run = DebateRun(step.debate)
    pending: list[Effect] = list(step.effects)
    queue = list(replies)
    while pending:
        effect = pending.pop(0)
        event = None
        if getattr(effect, "kind", "") == "ask_debater" and queue:
            event = ReplyReceived(
                run.debate.floor.speaker or AG,
                run.debate.floor.turns + 1,
                queue.pop(0),
                "",
                TurnMeta(),
            )
        elif isinstance(effect, Judge):
            view = ModeratorView(run.debate, tuple(run.turns[-2:]))
            decision = await moderator.judge(view)
            run.decisions.append(decision)
            event = Judged(effect.turn, decision)
        elif isinstance(effect, Conclude):
            run.conclusion = await moderator.conclude(
                ModeratorView(run.debate, tuple(run.turns[-2:]))
            )
            event = ConclusionReady(run.conclusion)
        if event is None:
            continue
        step = transition(run.debate, event, T0, rng)
        run.debate = step.debate
        if step.turn is not None:
            run.turns.append(step.turn)
        pending.extend(step.effects)
    return run
