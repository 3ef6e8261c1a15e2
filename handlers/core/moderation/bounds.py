"""The sizes what the moderator says is held to before it is stored or shown: its note, its
running summary, a question to the people and its options, one whole answer. Any moderator (the
model, its CLI, the rules, a test's) passes through here, so one answer of megabytes never
becomes a hundred thread messages or a state carried at every step. Pure."""

from __future__ import annotations

from dataclasses import replace

from handlers.core.model import Decision, UserQuestion
from handlers.core.shorten import omitted_note, shorten

NOTE_CHARS = 1500  # appended to a relayed reply: a direction, not an essay
SUMMARY_MAX_CHARS = 1000  # the running summary's cap, whoever writes it: keeps input bounded
QUESTION_CHARS = 2000  # a question to the people: a few lines, not an essay
MAX_OPTIONS = 25  # as many buttons as one Discord message holds
OPTION_CHARS = 200  # an option is a short answer (a button shows 80 of it)
# One answer of the moderator, whole: its largest (a boardroom synthesis, an adversarial
# result) is a few pages; a larger one is refused unread and the rules stand in.
ANSWER_CHARS = 200_000


def bounded(question: UserQuestion) -> UserQuestion:
    """The question within its limits: its text cut with a note of how much was left out,
    at most MAX_OPTIONS options (a note counts the rest), each within OPTION_CHARS."""
    options = tuple(shorten(option, OPTION_CHARS) for option in question.options[:MAX_OPTIONS])
    text = shorten(question.text, QUESTION_CHARS)
    left_out = len(question.options) - len(options)
    if left_out:
        text = f"{text}\n{omitted_note(left_out)}"
    if (text, options) == (question.text, question.options):
        return question
    return replace(question, text=text, options=options)


def bounded_decision(decision: Decision) -> Decision:
    """A judgement within its limits: note, summary and question (each unchanged if it fits)."""
    question = decision.user_question
    return replace(
        decision,
        note=shorten(decision.note, NOTE_CHARS),
        summary=bound_summary(decision.summary),
        user_question=bounded(question) if question is not None else None,
    )


def bound_summary(summary: str, cap: int = SUMMARY_MAX_CHARS) -> str:
    """Keep the newest lines that fit in `cap` characters (the oldest go first)."""
    text = summary.strip()
    if len(text) <= cap:
        return text
    lines = text.splitlines()
    while len(lines) > 1 and len("\n".join(lines)) > cap:
        lines.pop(0)
    kept = "\n".join(lines)
    return kept if len(kept) <= cap else kept[-cap:]
