"""The rule table: every event a front end or the runner can send has exactly one rule, given
by the feature package that owns the event."""

from __future__ import annotations

import typing

import pytest

from handlers.core.effects import Notify
from handlers.core.events import Event
from handlers.core.feature import Rule, rules
from handlers.core.model import AG
from handlers.core.table import TABLE, RuleTaken, assembled
from handlers.core.wiki.events import WikiReported
from tests.handlers.core.test_state_machine import speaking, step

EVENTS = typing.get_args(typing.get_args(Event)[0])


def test_every_event_has_its_rule_from_the_package_that_owns_it() -> None:
    assert set(TABLE) == set(EVENTS)
    for event, rule in TABLE.items():
        owner = event.__module__.rsplit(".", 1)[0]  # handlers.core.<feature>.events
        assert rule.apply.__module__ == f"{owner}.rules", event.__name__


def test_two_rules_for_one_event_are_refused() -> None:
    first = next(iter(TABLE.values()))
    with pytest.raises(RuleTaken):
        assembled(rules(first), rules(Rule(first.event, first.apply)))


def test_the_wiki_s_news_becomes_the_thread_s_notice_and_changes_nothing_else() -> None:
    running = speaking(AG)
    told = step(running, WikiReported("delayed", (("count", "2"),)))
    assert told.debate == running
    assert told.effects == (Notify("wiki.delayed", (("count", "2"),)),)
