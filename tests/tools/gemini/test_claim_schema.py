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


def test_claim_board_reaches_the_moderators_next_request() -> None:
    debate = replace(
        judging_debate(),
        moderation=replace(
            judging_debate().moderation,
            claims=(Claim("C1", "LRU면 충분하다", ("claude",), ClaimStatus.AGREED),),
        ),
    )
    prompt = judge_prompt(ModeratorView(debate=debate, last_turns=()), "ko")
    sent = "\n".join(text for _, text in prompt.messages)
    assert "C1 [claude] agreed: LRU면 충분하다" in sent
    assert "`claims`" in prompt.system
