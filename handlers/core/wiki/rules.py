"""The wiki outbox's news becomes the thread's notice; it changes nothing else. Pure."""

from __future__ import annotations

from handlers.core import effects as fx
from handlers.core.feature import Moment, Rule, rules
from handlers.core.model import Debate
from handlers.core.turns.steps import Step
from handlers.core.wiki.events import WikiReported


def _told(debate: Debate, event: WikiReported, at: Moment) -> Step:
    return Step(debate, (fx.Notify(f"wiki.{event.what}", event.params),))


RULES = rules(Rule(WikiReported, _told))
