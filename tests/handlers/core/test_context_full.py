"""A debater whose own conversation outgrew its model's context window (design v3's open
question 3): asked again once in a fresh session, then skipped for that turn, never the
debate failed on it; what it says, in every language."""

from __future__ import annotations

import pytest

from handlers.core.effects import AskDebater, Notify
from handlers.core.events import DebaterFailed
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import AG, CLAUDE, FailureKind, Outcome, Phase
from tests.handlers.core.test_state_machine import speaking, step


def test_a_full_context_restarts_the_seat_in_a_fresh_session() -> None:
    result = step(speaking(seat=CLAUDE), DebaterFailed(CLAUDE, 1, FailureKind.CONTEXT_FULL))
    notices = [e for e in result.effects if isinstance(e, Notify)]
    assert [n.key for n in notices] == ["debater.context_full"]
    ask = result.effects[-1]
    assert isinstance(ask, AskDebater) and ask.seat == CLAUDE and ask.fresh_session
    assert result.debate.phase is Phase.SPEAKING and result.debate.ending.outcome is None


def test_too_long_even_when_fresh_skips_that_turn_and_the_debate_goes_on() -> None:
    first = step(speaking(seat=CLAUDE), DebaterFailed(CLAUDE, 1, FailureKind.CONTEXT_FULL))
    again = step(first.debate, DebaterFailed(CLAUDE, 1, FailureKind.CONTEXT_FULL))
    notices = [e for e in again.effects if isinstance(e, Notify)]
    assert notices[0].key == "debater.skipped"
    assert dict(notices[0].params)["kind"] == FailureKind.CONTEXT_FULL.value
    assert again.debate.ending.outcome is not Outcome.FAILED
    assert again.debate.floor.speaker == AG  # the other side speaks next


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_people_are_told_what_happened_and_what_the_bot_does(language: str) -> None:
    t = Strings(language)
    said = t("debater.context_full", seat="Claude")
    assert "Claude" in said and said.startswith("ℹ️")
    assert t("failure.context_full") and t("claude.hint.context_full")
