"""A notice names a moderator task in words from the locale ("the advisor's review",
"어드바이저 검토"), never by its internal id ("the step decision", "advisor 단계")."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.formatting import notice_params
from handlers.core.effects import Notify
from handlers.core.events import TaskDone
from handlers.core.formats import FORMATS
from handlers.core.formats.adversarial.briefs import PROBES
from handlers.core.formats.boardroom.pages import ADVISOR, DECISION, SYNTHESIS
from handlers.core.formats.ledger.rules import FRONT, LEDGER, REPAIR
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import Debate, ModeratorSource, Phase, Proposal, Setup
from handlers.core.turns.steps import task_done

T0 = datetime(2026, 12, 1, tzinfo=UTC)
# Every moderator task each format runs (the adversarial probes and Validator have no schema).
TASKS = {
    "adversarial": ("intake", "validator", *(task for task, _ in PROBES)),
    "boardroom": (DECISION, SYNTHESIS, ADVISOR),
    "ledger": (LEDGER, FRONT, REPAIR),
}
CASES = [(name, task) for name, tasks in TASKS.items() for task in tasks]


def test_the_table_holds_every_task_a_format_declares() -> None:
    for name in FORMATS:
        assert set(FORMATS.named(name).task_schemas) <= set(TASKS.get(name, ())), name


def _fallback_notice(name: str, task: str) -> Notify:
    """What the engine says when the rules stand in for `task`."""
    debate = Debate(1, Proposal(1, "t", "q", "r", 0.9, "c", (1,)), Phase.JUDGING, T0, Setup(2))
    debate = replace(
        debate,
        setup=replace(debate.setup, format=name),
        moderation=replace(debate.moderation, tasks=(task,)),
    )
    step = task_done(debate, TaskDone(task, "x", ModeratorSource.RULES), random.Random(1))
    return next(e for e in step.effects if isinstance(e, Notify))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "task"), CASES)
def test_a_fallback_notice_names_the_task_in_words(language: str, name: str, task: str) -> None:
    strings = Strings(language)
    notice = _fallback_notice(name, task)
    assert notice.key == f"{name}.task_fallback"
    text = strings(notice.key, **notice_params(strings, dict(notice.params)))
    word = strings(f"task.{name}.{task.replace('-', '_')}")
    assert word in text and "⟦" not in text
    if language == "ko" or "-" in task:  # the id itself, never shown
        assert task not in text
    assert f"{task} step" not in text and f"{task} 단계" not in text and f"etapa {task}" not in text
