"""The rule-based moderator: pure, table-driven."""

from __future__ import annotations

import pytest

from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Action, ModeratorSource, Outcome, Phase, Stance
from handlers.core.moderation.bounds import SUMMARY_MAX_CHARS, bound_summary
from handlers.rules_moderator import RulesModerator
from tests.tools.gemini.builders import chat, reply_text, turn, view_after

AGREE, PARTIAL, DISAGREE = Stance.AGREE, Stance.PARTIAL, Stance.DISAGREE
TO_USER = {"to": "user", "text": "예산 한도가 있나요?"}
TO_OPPONENT = {"to": "opponent", "text": "지연 시간은요?"}


@pytest.mark.parametrize(
    ("stances", "question", "action"),
    [
        (((AG, AGREE), (CLAUDE, AGREE)), None, Action.CONCLUDE),
        (((AG, AGREE), (CLAUDE, AGREE)), TO_USER, Action.CONCLUDE),
        (((AG, AGREE), (CLAUDE, PARTIAL)), None, Action.CONTINUE),
        (((AG, DISAGREE),), TO_USER, Action.ASK_USER),
        (((AG, DISAGREE), (CLAUDE, PARTIAL)), TO_OPPONENT, Action.CONTINUE),
        ((), None, Action.CONTINUE),
    ],
)
async def test_judge_by_rules(stances: tuple, question: dict | None, action: Action) -> None:
    rules = RulesModerator(Strings("ko"))
    turns = (
        turn(1, AG, reply_text("A안")),
        turn(2, CLAUDE, reply_text("B안", question=question)),
    )
    decision = await rules.judge(view_after(*turns, stances=stances))
    assert decision.action is action
    assert decision.source is ModeratorSource.RULES
    assert decision.note == ""
    if action is Action.ASK_USER:
        assert decision.user_question is not None
        assert decision.user_question.text == TO_USER["text"]
    else:
        assert decision.user_question is None


async def test_the_summary_grows_by_one_line_per_turn_and_stays_bounded() -> None:
    rules = RulesModerator(Strings("en"))
    summary = ""
    for number in range(1, 200):
        seat = AG if number % 2 else CLAUDE
        latest = turn(number, seat, reply_text(f"point {number} " + "x" * 400, "partial"))
        summary = (await rules.judge(view_after(latest, summary=summary))).summary
        if number == 1:
            assert summary.startswith("T1 AG (partly agrees): point 1 x")
    assert len(summary) <= SUMMARY_MAX_CHARS
    assert summary.splitlines()[-1].startswith("T199 AG")  # the newest line is kept
    again = (await rules.judge(view_after(latest, summary=summary))).summary
    assert again == summary  # judged again after a restart: no second line


async def test_the_mechanical_conclusion_lists_each_sides_last_position() -> None:
    rules = RulesModerator(Strings("ko"))
    turns = (
        turn(5, AG, reply_text("Redis가 맞습니다.", "disagree")),
        turn(6, CLAUDE, reply_text("LRU로 충분합니다.", "partial", TO_USER)),
    )
    view = view_after(*turns, phase=Phase.CONCLUDING, outcome=Outcome.MAX_ROUNDS)
    conclusion = await rules.conclude(view)
    assert conclusion.source is ModeratorSource.RULES
    assert "최대 라운드" in conclusion.decision
    assert dict(conclusion.positions) == {
        AG: "(반대) Redis가 맞습니다.",
        CLAUDE: "(부분 동의) LRU로 충분합니다.",
    }
    assert conclusion.open_issues == (TO_USER["text"],)
    assert conclusion.next_steps


async def test_rules_never_find_a_debate() -> None:
    detection = await RulesModerator(Strings("en")).detect(
        (chat(1, "should we decide Redis vs LRU?", 0),)
    )
    assert not detection.debate_worthy and detection.source is ModeratorSource.RULES


@pytest.mark.parametrize(
    ("text", "cap", "expected"),
    [("a\nb\nc", 3, "b\nc"), ("short", 10, "short"), ("x" * 9, 4, "xxxx")],
)
def test_bound_summary_keeps_the_newest(text: str, cap: int, expected: str) -> None:
    assert bound_summary(text, cap) == expected
