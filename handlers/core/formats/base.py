"""What a format is: pure data and functions that say, from the stored debate, what happens next.

A format never does I/O. The engine (handlers/core/state_machine.py) asks the participants a
step names, stores each answer as it arrives, and once a step's answers are in (or skipped)
asks the format what follows. Storage, effects, crash safety, verbatim relay, no pings, Stop
and budgets stay the engine's."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from pydantic import BaseModel

from handlers.core.effects import AskDebater, Notify
from handlers.core.formats.decision import DecisionRecord, concluded
from handlers.core.formats.keys import verbatim
from handlers.core.formats.plans import AskStep, JudgeStep, Plan
from handlers.core.model import (
    Debate,
    Decision,
    ParsedReply,
    Participant,
    PeopleLine,
    Turn,
    WikiPage,
)
from handlers.core.quotes import prose
from handlers.core.reply.parser import parse_reply
from handlers.core.reply.schema import REPLY_SCHEMA_JSON


@dataclass(frozen=True)
class CardOption:
    """A setup question a format asks on the card: `key` is stored on the debate's options;
    the labels come from the locale (`front.option_<key>` and `front.option_<key>_<choice>`,
    dots as underscores); the default is the configured one the debate was proposed with.
    Without choices the answer is free text, typed in a form (at most `FORM_LIMIT`). With
    `members`, the answer is two to `members` of the card's participants (their ids,
    comma-separated), and `read` says what it is now (the format's suggestion until a person
    picks)."""

    key: str
    choices: tuple[str, ...] = ()
    members: int = 0
    read: Callable[[Debate], str] | None = None

    @property
    def is_text(self) -> bool:
        """Free text (a form), not a menu."""
        return not self.choices and not self.members

    def valid(self, value: str, seats: tuple[str, ...] = ()) -> bool:
        """One of the choices; free text within the form's limit; members among `seats`."""
        if self.members:
            ids = value.split(",")
            distinct = len(set(ids)) == len(ids) and set(ids) <= set(seats)
            return distinct and 2 <= len(ids) <= self.members
        return len(value) <= FORM_LIMIT if self.is_text else value in self.choices

    def current(self, debate: Debate) -> str:
        """The answer the card shows now: `read`'s, else the stored one, else the first choice."""
        if self.read is not None:
            return self.read(debate)
        return debate.option(self.key, self.choices[0] if self.choices else "")


FORM_LIMIT = 4000  # Discord's limit for one text input
REPAIR_SUFFIX = "-repair"  # of the step that asks once more for what an answer lacked
SOURCE = "source:{}"  # the output key that marks a task's output the rules wrote


@dataclass(frozen=True)
class Piece:
    """One part of a brief: a prompt template of prompts/ and its values."""

    template: str
    values: tuple[tuple[str, PieceValue], ...] = ()
    additions: bool = False  # the template takes `additions`: people's words, moderator's note
    rule: str = "debate_reply"  # its `${reply_rule}`: this prompt, or `<rule>_person` for a person


# A value is text, a piece filled in the same language, or lines of either.
PieceValue = str | Piece | tuple[str | Piece, ...]


@dataclass(frozen=True)
class BriefInput:
    """What a brief may be built from: the stored turns the format shows, verbatim, and what
    the people said that this participant has not heard yet."""

    debate: Debate
    ask: AskDebater
    shown: tuple[Turn, ...]
    people: tuple[PeopleLine, ...]


class Format(ABC):
    """A debate protocol, pure: the engine calls these with the stored debate. The methods
    below the abstract ones are optional, with the defaults of a format that needs none."""

    name: str
    # The format's reply contract: the tolerant parser of a debater's answer (by default the
    # JSON one: opinion, wiki_action, ...). An adapter's own parse stands only for that one.
    parse: Callable[[str], ParsedReply] = staticmethod(parse_reply)
    # Its moderator tasks' answer models, by task name: a task named here answers one JSON
    # object of that shape (the request carries it to the moderator); any other answers text.
    task_schemas: Mapping[str, type[BaseModel]] = MappingProxyType({})
    card_options: tuple[CardOption, ...] = ()  # setup questions the card asks (a menu each)
    # A stalemate ends in the people's poll: only a format with no ending of its own (boardroom
    # ends in its members' votes, ledger in its end-state, adversarial in the Reconciler's).
    stalemate_poll = False

    def allows(self, roster: tuple[Participant, ...]) -> bool:
        """True if this format can run with this roster: by default, two or more participants."""
        return len(roster) >= 2

    @abstractmethod
    def start(self, debate: Debate, rng: random.Random) -> Plan:
        """The first step, at approval."""

    @abstractmethod
    def noted(self, debate: Debate, turn: Turn) -> Debate:
        """The format's own state after one answer was stored (before the step may be done)."""

    @abstractmethod
    def answered(self, debate: Debate, rng: random.Random) -> Plan:
        """What follows once every participant asked has answered or been skipped (`step_turns`)."""

    @abstractmethod
    def judged(self, debate: Debate, decision: Decision, rng: random.Random) -> Plan:
        """What follows a moderator judgement that neither concludes nor asks the people."""

    @abstractmethod
    def resumed(self, debate: Debate, rng: random.Random) -> Plan:
        """What follows once the people answered the moderator's question."""

    @abstractmethod
    def shows(self, debate: Debate, participant: str) -> tuple[int, ...]:
        """The stored turns the participant's next brief carries verbatim: its visibility."""

    @abstractmethod
    def brief(self, given: BriefInput) -> tuple[Piece, ...]:
        """The participant's brief, as prompt pieces (the engine renders them)."""

    @abstractmethod
    def estimate(self, debate: Debate) -> tuple[int, int]:
        """At most how many turns and moderator requests (the card's estimate, the daily budget)."""

    @abstractmethod
    def pages(self, debate: Debate) -> tuple[str, ...]:
        """The wiki pages this debate has written (the closing summary links only these)."""

    def reply_schema(self, debate: Debate, ask: AskDebater) -> str:
        """The reply contract of `ask` as a JSON Schema (JSON text), for a backend that
        validates structured output itself; '': none (the format's parser alone). By default
        the JSON contract's, for a format that reads replies with it."""
        del debate, ask
        return REPLY_SCHEMA_JSON if self.parse is parse_reply else ""

    def words(self, debate: Debate, turn: Turn) -> str:
        """What a person typing a seat is shown of `turn`: the words it wrote, not its JSON."""
        return prose(turn)

    def task_brief(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> tuple[Piece, ...]:
        """The moderator's prompt for `task`, as prompt pieces (the engine renders them)."""
        raise LookupError(task)

    def task_shows(self, debate: Debate, task: str) -> tuple[int, ...]:
        """The stored turns the task may read: by default every one (what was said, verbatim)."""
        return every_turn(debate)

    def task_fallback(self, debate: Debate, task: str, shown: tuple[Turn, ...]) -> PieceValue:
        """A deterministic output when the model is unavailable (rules mode)."""
        raise LookupError(task)

    def tasked(self, debate: Debate, task: str, output: str, rng: random.Random) -> Plan:
        """What follows a task's output (stored in `debate.outputs`); by default a judgement."""
        return JudgeStep(debate)

    def task_pages(self, debate: Debate, task: str) -> tuple[str, ...]:
        """The format pages to write once a task's output is stored."""
        return ()

    def turn_pages(self, debate: Debate, turn: Turn) -> tuple[str, ...]:
        """The format pages to write as a turn is stored (by default none: the Round-Log)."""
        return ()

    def page_shows(self, debate: Debate, page: str) -> tuple[int, ...]:
        """The stored turns a format page is rendered from."""
        return ()

    def render_page(self, debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
        """A format page: (title, markdown)."""
        raise LookupError(page)

    def record_page(self, debate: Debate) -> str:
        """The page that records the outcome (the thread's last word links it): the
        Conclusion if the format writes one, else the closing page it lists last."""
        pages = self.pages(debate) or (WikiPage.CONCLUSION.value,)
        return WikiPage.CONCLUSION.value if WikiPage.CONCLUSION.value in pages else pages[-1]

    def summary(self, debate: Debate) -> str:
        """The format's closing block (Markdown); empty: the engine's Conclusion instead."""
        return ""

    def holds(self, debate: Debate) -> bool:
        """True if the current step's answers are posted only once all of them are in."""
        return False

    def closes_itself(self, debate: Debate) -> bool:
        """True if the closing block stands in for the moderator's Conclusion (the format
        writes its own `conclusion` page); False: the Conclusion is written as well."""
        return bool(self.summary(debate))

    def decision(self, debate: Debate, turns: tuple[Turn, ...]) -> DecisionRecord:
        """The outcome as a decision record (an ADR's parts), from the stored debate and its
        turns; by default from the moderator's Conclusion, the engine's own outcome."""
        del turns
        return concluded(debate)

    def card_roster(self, debate: Debate, names: dict[str, str]) -> str:
        """The card's participants line, keyed (keys.py): `AG · Claude (security reviewer)`."""
        return " · ".join(verbatim(m.labelled(names[m.id])) for m in debate.setup.roster)

    def seats_added(
        self, options: tuple[tuple[str, str], ...], language: str = ""
    ) -> tuple[Participant, ...]:
        """The participants the format seats beside the roster, given the debate's option
        defaults (their backends must be built even if no roster member uses them), named in
        `language` where given (the card names them to people)."""
        return ()


def output_of(debate: Debate, task: str) -> str:
    """A stored task output ('' if the task has not run)."""
    return dict(debate.moderation.outputs).get(task, "")


def with_output(debate: Debate, task: str, output: str, *, by_rules: bool = False) -> Debate:
    """The debate with `task`'s output stored (replacing one), marked if the rules wrote it."""
    source = SOURCE.format(task)
    kept = tuple(pair for pair in debate.moderation.outputs if pair[0] not in (task, source))
    marked = ((source, "rules"),) if by_rules else ()
    return replace(
        debate, moderation=replace(debate.moderation, outputs=(*kept, (task, output), *marked))
    )


def by_rules(debate: Debate, task: str) -> bool:
    """Whether `task`'s stored output is the format's own fallback, not a model's words (a
    trust the engine records: never read from the output itself)."""
    return debate.output_of(SOURCE.format(task)) == "rules"


def is_repair(step: str) -> bool:
    """True if the step asks once more for what the answers lacked."""
    return step.endswith(REPAIR_SUFFIX)


def lacks(turn: Turn, gaps: tuple[str, ...]) -> tuple[str, ...]:
    """What a repair asks `turn` for: its contract's `gaps`, or nothing of a person's typed
    words, which no reply contract binds (they were asked as a person)."""
    return () if turn.meta.person else gaps


def repair_ask(debate: Debate, gaps: tuple[tuple[str, str], ...], notice: str) -> AskStep | None:
    """The one repair request to each (participant, missing parts) that lacks any, with the
    notice `notice` naming them; None if none lacks any or this step is the repair already."""
    lacking = tuple((seat, missing) for seat, missing in gaps if missing)
    if not lacking or is_repair(debate.floor.step):
        return None
    said = tuple(Notify(notice, (("seat", seat), ("missing", gap))) for seat, gap in lacking)
    asked = tuple(seat for seat, _ in lacking)
    return AskStep(debate, f"{debate.floor.step}{REPAIR_SUFFIX}", asked, said)


def agenda(debate: Debate) -> tuple[tuple[str, str], ...]:
    """The proposal's topic, question and context, as prompt values."""
    proposal = debate.proposal
    return (
        ("topic", proposal.topic),
        ("question", proposal.question),
        ("context", proposal.context),
    )


def people_said(debate: Debate) -> str:
    """What the people said, a line each, attributed and verbatim ('-': nothing)."""
    return "\n".join(f"- {line.who}: {line.text}" for line in debate.people.lines) or "-"


def relayed(debate: Debate, template: str, turns: tuple[Turn, ...]) -> list[Piece]:
    """Each turn as it was written, as `template` with its `speaker`, `turn` number and `reply`."""
    return [
        Piece(
            template,
            (("speaker", debate.name_of(t.seat)), ("turn", str(t.number)), ("reply", t.text)),
        )
        for t in turns
    ]


def every_turn(debate: Debate) -> tuple[int, ...]:
    """Every stored turn of the debate."""
    return tuple(number for number, _ in debate.floor.log)


def latest_of(debate: Debate, seat: str) -> tuple[int, ...]:
    """The participant's latest stored turn, if any (a repair's answer replaces the first)."""
    latest = max((n for n, who in debate.floor.log if who == seat), default=0)
    return (latest,) if latest else ()


def since_own(debate: Debate, seat: str) -> tuple[int, ...]:
    """Every other participant's turn since this one last spoke."""
    last_own = max((n for n, who in debate.floor.log if who == seat), default=0)
    return tuple(n for n, who in debate.floor.log if n > last_own and who != seat)


def strings(value: object) -> tuple[str, ...]:
    """A contract's list field as its non-empty strings, stripped (a string: a list of one)."""
    if isinstance(value, list):
        return tuple(str(item).strip() for item in value if str(item).strip())
    if isinstance(value, str) and value.strip():
        return (value.strip(),)
    return ()
