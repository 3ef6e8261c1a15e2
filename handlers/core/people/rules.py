"""The people's rules: an answer to the moderator's question, words typed in the room, and
their word at a pause (the budget spent, the meter high, a usage limit). Pure."""

from __future__ import annotations

import random
from dataclasses import replace

from handlers.core import effects as fx
from handlers.core.feature import Moment, Rule, rules
from handlers.core.model import Actor, Debate, PeopleLine, Phase
from handlers.core.people.events import BudgetDecided, PeopleSaid, UserAnswered
from handlers.core.people.pauses import decided
from handlers.core.spending.limits import PAUSE_CHOICES
from handlers.core.turns.steps import Step, format_of, run_plan


def _answer_fits(debate: Debate, event: UserAnswered) -> bool:
    """A typed answer (question 0) answers whatever waits; a control's only its question."""
    if event.question == 0:
        return debate.phase is Phase.AWAITING_USER
    asked = debate.phase is Phase.AWAITING_USER and debate.people.user_question is not None
    return asked and event.question == debate.question_number


def _on_answer(debate: Debate, event: UserAnswered, at: Moment) -> Step:
    if debate.people.paused:  # at a pause, words are for the moderator
        return _said(debate, event.actor, event.answer)
    return _answered(debate, event.actor, event.answer, at.rng)


def _said_fits(debate: Debate, event: PeopleSaid) -> bool:
    """Words with some text, while the debate hears the people."""
    return debate.phase.hears_people and bool(event.text.strip())


def _on_said(debate: Debate, event: PeopleSaid, at: Moment) -> Step:
    return _said(debate, event.actor, event.text)


def _pause_fits(debate: Debate, event: BudgetDecided) -> bool:
    """A pause's button answers that pause only (`at`: its number; 0: whichever is open). A
    pause stored before pauses were numbered (number 0) was named by the turn count."""
    this = (0, debate.people.pauses) if debate.people.pauses else (0, debate.floor.turns)
    return (
        debate.phase is Phase.AWAITING_USER
        and event.choice in PAUSE_CHOICES.get(debate.people.paused, ())
        and event.at in this
    )


def _on_pause(debate: Debate, event: BudgetDecided, at: Moment) -> Step:
    return decided(debate, event, at.rng)


def _answered(debate: Debate, actor: Actor, answer: str, rng: random.Random) -> Step:
    """The answer to the open question: kept verbatim, and the format goes on."""
    question = debate.people.user_question.text if debate.people.user_question else ""
    line = PeopleLine(who=actor.shown_name, text=answer, question=question or "-")
    people = replace(debate.people, user_question=None, lines=(*debate.people.lines, line))
    answered = replace(debate, people=people)
    step = run_plan(format_of(answered).resumed(answered, rng))
    notice = fx.Notify("user.answered", (("user", line.who), ("answer", answer)))
    logged = fx.LogNote(f"people-{len(answered.people.lines)}", "answer", line.who, answer)
    closed = fx.CloseQuestion(debate.question_number)
    return Step(step.debate, (notice, closed, logged, *step.effects))


def _said(debate: Debate, actor: Actor, text: str) -> Step:
    """A message typed in the room: kept verbatim for the moderator and the next debaters."""
    line = PeopleLine(who=actor.shown_name, text=text)
    said = replace(debate, people=replace(debate.people, lines=(*debate.people.lines, line)))
    return Step(said, (fx.LogNote(f"people-{len(said.people.lines)}", "said", line.who, text),))


RULES = rules(
    Rule(UserAnswered, _on_answer, _answer_fits),
    Rule(PeopleSaid, _on_said, _said_fits),
    Rule(BudgetDecided, _on_pause, _pause_fits),
)
