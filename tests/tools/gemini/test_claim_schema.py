"""The judgement's claim updates: read from the moderator's JSON (optional), and the board
shown to it in the state of its next request."""

from __future__ import annotations

import json
from dataclasses import replace

from handlers.core.model import ModeratorView
from handlers.core.moderation.claims import Claim, ClaimStatus, ClaimUpdate
from tests.tools.gemini.builders import judging_debate
from tools.gemini.context import judge_prompt
from tools.gemini.schemas import JudgeReply, to_decision

REPLY = {
    "action": "continue",
    "next_speaker": None,
    "note": "",
    "user_question": None,
    "user_options": [],
    "consensus": 0.4,
    "summary": "s",
}


def test_claim_updates_are_read_and_optional() -> None:
    with_claims = REPLY | {
        "claims": [
            {"id": "", "text": " LRU면 충분하다 ", "holder": "claude", "status": "open"},
            {"id": "C1", "text": "", "holder": "ag", "status": "contested"},
        ]
    }
    decision = to_decision(JudgeReply.model_validate_json(json.dumps(with_claims)))
    assert decision.claims == (
        ClaimUpdate("", "LRU면 충분하다", "claude", ClaimStatus.OPEN),
        ClaimUpdate("C1", "", "ag", ClaimStatus.CONTESTED),
    )
    assert to_decision(JudgeReply.model_validate_json(json.dumps(REPLY))).claims == ()


def test_claim_board_reaches_the_moderators_next_request_as_its_changes() -> None:
    """The claims the last judgement changed come whole, the other open ones as a gist, the
    settled ones by id: the board costs the same at claim 5 and at claim 40."""
    long_claim = "세션 데이터는 인스턴스 간에 공유되어야 하므로 LRU만으로는 부족하다 " * 4
    claims = (
        Claim("C1", "LRU면 충분하다", ("claude",), ClaimStatus.AGREED),
        Claim("C2", long_claim, ("ag",), ClaimStatus.OPEN),
        Claim("C3", "관리형 Redis는 월 40만 원이 든다", ("ag",), ClaimStatus.CONTESTED, turn=1),
    )
    debate = judging_debate()  # judging turn 2: the last judgement judged turn 1
    debate = replace(debate, moderation=replace(debate.moderation, claims=claims))
    prompt = judge_prompt(ModeratorView(debate=debate, last_turns=()), "ko")
    sent = "\n".join(text for _, text in prompt.messages)
    changed = sent.index("Changed by your last judgement")
    assert sent.index("C3 [ag] contested: 관리형 Redis는 월 40만 원이 든다") > changed
    assert f"C2 [ag] open: {long_claim[:60]}" in sent and long_claim.strip() not in sent
    assert "Settled: agreed C1." in sent and "LRU면 충분하다" not in sent
    assert "`claims`" in prompt.system
