"""What a format is: pure data and functions that say, from the stored debate, what happens next.

A format never does I/O. The engine (handlers/core/state_machine.py) runs any format: it asks the
participants a step names (several at once where a step says so), stores each answer as it
arrives, and when a step's answers are all in (or skipped) asks the format what follows.
Storage, effects, crash safety, verbatim relay, no pings, Stop and budgets stay the engine's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Protocol

from handlers.core.effects import AskDebater
from handlers.core.formats.keys import verbatim
from handlers.core.formats.plans import AskStep, EndStep, JudgeStep, PeopleStep, Plan, TaskStep
from handlers.core.model import Debate, Decision, Participant, PeopleLine, Turn

# The plans are re-exported: a format reads what it may answer beside what it is.
__all__ = [
    "AskStep",
    "BriefInput",
    "CardOption",
    "EndStep",
    "Format",
    "FormatDefaults",
    "JudgeStep",
    "PeopleStep",
    "Piece",
    "Plan",
    "TaskStep",
    "output_of",
    "with_output",
]


@dataclass(frozen=True)
class CardOption:
    """A setup question a format asks on the card: `key` is stored on the debate's options;
    the labels come from the locale (`front.option_<key>` and `front.option_<key>_<choice>`,
    dots as underscores); the default is the configured one the debate was proposed with.
    Without choices the answer is free text, typed in a form (at most `FORM_LIMIT`)."""

    key: str
    choices: tuple[str, ...] = ()

    @property
    def is_text(self) -> bool:
        """Free text (a form), not a menu."""
        return not self.choices

    def valid(self, value: str) -> bool:
        """One of the choices; free text within the form's limit."""
        return len(value) <= FORM_LIMIT if self.is_text else value in self.choices


FORM_LIMIT = 4000  # Discord's limit for one text input


@dataclass(frozen=True)
class Piece:
    """One part of a brief: a prompt template of prompts/ and its values."""

    template: str
    values: tuple[tuple[str, str], ...] = ()
    additions: bool = False  # the template takes `additions`: people's words, moderator's note


@dataclass(frozen=True)
class BriefInput:
    """What a brief may be built from: the stored turns the format shows, verbatim, and what
    the people said that this participant has not heard yet."""

    debate: Debate
    ask: AskDebater
    shown: tuple[Turn, ...]
    people: tuple[PeopleLine, ...]


class Format(Protocol):
    """A debate protocol, pure: the engine calls these with the stored debate."""

    name: str
    contract: str  # the reply contract the engine parses ("json": opinion, wiki_action, ...)
    card_options: tuple[CardOption, ...]  # setup questions the card asks (a menu each)
    # A stalemate ends in the people's poll: only a format with no ending of its own (boardroom
    # ends in its members' votes, ledger in its end-state, adversarial in the Reconciler's).
    stalemate_poll: bool

    def allows(self, roster: tuple[Participant, ...]) -> bool:
        """True if this format can run with this roster."""
        ...

    def start(self, debate: Debate, rng: random.Random) -> Plan:
        """The first step, at approval."""
        ...

    def noted(self, debate: Debate, turn: Turn) -> Debate:
        """The format's own state after one answer was stored (before the step may be done)."""
        ...

    def answered(self, debate: Debate, rng: random.Random) -> Plan:
        """What follows once every participant the step asked has answered or been skipped
        (`debate.step_turns` holds the turns the step stored)."""
        ...

    def judged(self, debate: Debate, decision: Decision, rng: random.Random) -> Plan:
        """What follows a moderator judgement that neither concludes nor asks the people."""
        ...

    def resumed(self, debate: Debate, rng: random.Random) -> Plan:
        """What follows once the people answered the moderator's question."""
        ...

    def shows(self, debate: Debate, participant: str) -> tuple[int, ...]:
        """The stored turns the participant's next brief carries verbatim: its visibility."""
        ...

    def brief(self, given: BriefInput) -> tuple[Piece, ...]:
        """The participant's brief, as prompt pieces (the engine renders them)."""
        ...

    def estimate(self, debate: Debate) -> tuple[int, int]:
        """At most how many turns the debate takes, and how many moderator requests (for the
        card's estimate and the daily budget)."""
        ...

    def pages(self, debate: Debate) -> tuple[str, ...]:
        """The wiki pages this debate has written (the closing summary links only these)."""
        ...

    # ---- shared extensions (notes/FORMAT_EXTENSIONS.md); FormatDefaults has the defaults

    def contract_of(self, debate: Debate) -> str:
        """The reply contract of the current step."""
        ...

    def missing(self, debate: Debate, turn: Turn) -> tuple[str, ...]:
        """The required parts `turn` lacks (empty: complete)."""
        ...

    def task_brief(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> tuple[Piece, ...]:
        """The moderator's prompt for `task`, as prompt pieces (the engine renders them)."""
        ...

    def task_shows(self, debate: Debate, task: str) -> tuple[int, ...]:
        """The stored turns the task may read."""
        ...

    def task_json(self, debate: Debate, task: str) -> bool:
        """True if the task's answer must be one JSON object."""
        ...

    def task_fallback(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> str:
        """A deterministic output when the model is unavailable (rules mode)."""
        ...

    def tasked(self, debate: Debate, task: str, output: str, rng: random.Random) -> Plan:
        """What follows a task's output (stored in `debate.outputs`)."""
        ...

    def task_pages(self, debate: Debate, task: str) -> tuple[str, ...]:
        """The format pages to write once a task's output is stored."""
        ...

    def turn_pages(self, debate: Debate, turn: Turn) -> tuple[str, ...]:
        """The format pages to write as a turn is stored (e.g. one page per turn)."""
        ...

    def page_shows(self, debate: Debate, page: str) -> tuple[int, ...]:
        """The stored turns a format page is rendered from."""
        ...

    def render_page(self, debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
        """A format page: (title, markdown)."""
        ...

    def summary(self, debate: Debate) -> str:
        """The format's closing block (Markdown); empty: the engine's Conclusion instead."""
        ...

    def holds(self, debate: Debate) -> bool:
        """True if the current step's answers are posted only once all of them are in."""
        ...

    def closes_itself(self, debate: Debate) -> bool:
        """True if the closing block stands in for the moderator's Conclusion (the format
        writes its own `conclusion` page); False: the Conclusion is written as well."""
        ...

    def card_roster(self, debate: Debate, names: dict[str, str]) -> str:
        """The card's participants line, keyed (keys.py), from each participant's `names`."""
        ...

    def seats_added(self, options: tuple[tuple[str, str], ...]) -> tuple[Participant, ...]:
        """The participants the format seats beside the roster, given the debate's option
        defaults (their backends must be built even if no roster member uses them)."""
        ...


class FormatDefaults:
    """The shared extensions' defaults, for a format that uses none of them."""

    contract = "json"
    card_options: tuple[CardOption, ...] = ()
    stalemate_poll = False

    def contract_of(self, debate: Debate) -> str:
        """The format's one contract."""
        return self.contract

    def missing(self, debate: Debate, turn: Turn) -> tuple[str, ...]:
        """Nothing is required beyond what the parser tolerates."""
        return ()

    def task_brief(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> tuple[Piece, ...]:
        """No tasks."""
        raise LookupError(task)

    def task_shows(self, debate: Debate, task: str) -> tuple[int, ...]:
        """No tasks."""
        return ()

    def task_json(self, debate: Debate, task: str) -> bool:
        """Tasks answer in JSON."""
        return True

    def task_fallback(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> str:
        """No tasks."""
        raise LookupError(task)

    def tasked(self, debate: Debate, task: str, output: str, rng: random.Random) -> Plan:
        """No tasks: a stray one lets the moderator judge."""
        return JudgeStep(debate)

    def task_pages(self, debate: Debate, task: str) -> tuple[str, ...]:
        """No format pages."""
        return ()

    def turn_pages(self, debate: Debate, turn: Turn) -> tuple[str, ...]:
        """No page per turn: turns go to the Round-Log."""
        return ()

    def page_shows(self, debate: Debate, page: str) -> tuple[int, ...]:
        """No format pages."""
        return ()

    def render_page(self, debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
        """No format pages."""
        raise LookupError(page)

    def summary(self, debate: Debate) -> str:
        """No closing block: the Conclusion is posted."""
        return ""

    def holds(self, debate: Debate) -> bool:
        """Every answer is posted as it arrives."""
        return False

    def closes_itself(self, debate: Debate) -> bool:
        """A format with a closing block closes with it instead of the Conclusion."""
        return bool(self.summary(debate))

    def seats_added(self, options: tuple[tuple[str, str], ...]) -> tuple[Participant, ...]:
        """Only the roster takes part."""
        return ()

    def card_roster(self, debate: Debate, names: dict[str, str]) -> str:
        """`AG · Claude (security reviewer)`: each participant with its persona, if any."""
        return " · ".join(
            verbatim(f"{names[m.id]} ({m.persona})" if m.persona else names[m.id])
            for m in debate.roster
        )


def output_of(debate: Debate, task: str) -> str:
    """A stored task output ('' if the task has not run)."""
    return dict(debate.outputs).get(task, "")


def with_output(debate: Debate, task: str, output: str, *, by_rules: bool = False) -> Debate:
    """The debate with `task`'s output stored (replacing an earlier one), and whether the
    format's rules wrote it rather than a model (`by_rules`)."""
    source = _source_key(task)
    kept = tuple(pair for pair in debate.outputs if pair[0] not in (task, source))
    marked = ((source, "rules"),) if by_rules else ()
    return replace(debate, outputs=(*kept, (task, output), *marked))


def by_rules(debate: Debate, task: str) -> bool:
    """Whether `task`'s stored output is the format's own fallback, not a model's words (a
    trust the engine records: never read from the output itself)."""
    return debate.output_of(_source_key(task)) == "rules"


def _source_key(task: str) -> str:
    return f"source:{task}"
