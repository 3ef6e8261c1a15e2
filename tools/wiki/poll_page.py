"""The people's poll on the Conclusion page (issue 18, feature 2): the decision with its vote
counts first, the minority report (each side's case and verified quotes) after the positions."""

from __future__ import annotations

from collections.abc import Callable

from handlers.core.minority import decision_text, report_markdown
from handlers.core.model import Debate
from handlers.core.poll_data import PollStage

Translate = Callable[..., str]


def people_decision(debate: Debate, t: Translate, neutral: Callable[[str], str]) -> list[str]:
    """`## The people's decision` and the result with the votes per answer, once it closed."""
    poll = debate.poll
    if poll is None or poll.stage is not PollStage.CLOSED:
        return []
    return [f"## {t('poll.decision_title')}", neutral(decision_text(poll, t))]


def minority_report(debate: Debate, t: Translate, neutral: Callable[[str], str]) -> list[str]:
    """`## Minority report`, whole, when one was written."""
    poll = debate.poll
    if poll is None or poll.report is None:
        return []
    return [f"## {t('poll.report_heading')}", neutral(report_markdown(debate, poll.report, t))]
