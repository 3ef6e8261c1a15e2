"""The moderator's Conclusion and question reach the domain whole: nothing is cut there."""

from __future__ import annotations

from handlers.core.model import Action
from tools.gemini.schemas import (
    ConclusionReply,
    JudgeReply,
    PositionReply,
    to_conclusion,
    to_decision,
)


def test_a_long_decision_and_many_items_are_kept_whole() -> None:
    decision = "결정: " + "가" * 5000
    items = [f"점 {i} " + "나" * 2500 for i in range(25)]
    reply = ConclusionReply(
        decision=decision,
        agreed_points=items,
        open_issues=[],
        positions=[PositionReply(speaker="ag", position="다" * 3000)],
        next_steps=[],
    )
    conclusion = to_conclusion(reply)
    assert conclusion.decision == decision and conclusion.agreed == tuple(items)
    assert conclusion.positions[0][1] == "다" * 3000


def test_a_long_question_and_option_are_kept_whole() -> None:
    option = "선택지 " * 50
    reply = JudgeReply.model_validate(
        {
            "action": Action.ASK_USER.value,
            "user_question": "질문 " * 1500,
            "user_options": [option, "아니오", *(f"그 밖의 {n}" for n in range(6))],
            "next_speaker": None,
            "note": "",
            "consensus": 0.1,
            "summary": "s",
        }
    )
    question = to_decision(reply).user_question
    assert question is not None and question.text == ("질문 " * 1500).strip()
    assert question.options == (option.strip(), "아니오", *(f"그 밖의 {n}" for n in range(6)))
