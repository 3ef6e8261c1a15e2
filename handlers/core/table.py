"""Every event's rule, assembled from the feature packages: the one table the state machine
applies and the admission rule consults. A feature adds its events' rules here with one line.

A package (handlers/core/<feature>/) keeps its events (events.py), its slice of the debate
(state.py) and its rules (rules.py): for each event, when the debate has a use for it and the
step it makes."""

from __future__ import annotations

from typing import Any

from handlers.core.card import rules as card_rules
from handlers.core.ending import rules as ending_rules
from handlers.core.feature import After, Rule, Rules
from handlers.core.moderation import rules as moderation_rules
from handlers.core.people import rules as people_rules
from handlers.core.poll import rules as poll_rules
from handlers.core.spending import rules as spending_rules
from handlers.core.steelman import rules as steelman_rules
from handlers.core.turns import rules as turns_rules
from handlers.core.wiki import rules as wiki_rules


class RuleTaken(ValueError):
    """Two packages gave a rule for one event."""


def assembled(*given: Rules) -> dict[type[Any], Rule[Any]]:
    """The packages' rules in one table; an event two packages give a rule for is refused."""
    table: dict[type[Any], Rule[Any]] = {}
    for package in given:
        for event, rule in package.items():
            if event in table:
                raise RuleTaken(event.__name__)
            table[event] = rule
    return table


TABLE = assembled(
    card_rules.RULES,
    turns_rules.RULES,
    moderation_rules.RULES,
    people_rules.RULES,
    poll_rules.RULES,
    spending_rules.RULES,
    ending_rules.RULES,
    steelman_rules.RULES,
    wiki_rules.RULES,
)
# What a feature adds after another's event made its step, in this order.
AFTER: tuple[After[Any], ...] = (*steelman_rules.AFTER,)


def rule_for(event: object) -> Rule[Any] | None:
    """The event's rule (None: no package knows it)."""
    return TABLE.get(type(event))


def after(event: object) -> tuple[After[Any], ...]:
    """What follows the event's own rule, from the other features."""
    return tuple(follower for follower in AFTER if isinstance(event, follower.event))
