"""Compose what a debater receives: the opening, or the other's reply verbatim plus additions."""

from __future__ import annotations

import prompts
from handlers.events import AskDebater
from handlers.model import SEAT_NAMES, Debate, Turn
from handlers.reply_fields import shown

LANGUAGE_NAMES = {"ko": "Korean (한국어)", "en": "English"}


def participant_system_prompt(language: str) -> str:
    """The debaters' system prompt: the reply contract, documents only, the language."""
    return prompts.load("debate_participant", language, language_name=LANGUAGE_NAMES[language])


def compose_turn_prompt(
    debate: Debate, ask: AskDebater, relayed: Turn | None, language: str
) -> str:
    """The whole text for `ask.seat`; a relayed reply appears in it byte for byte."""
    parts = []
    if ask.fresh_session:
        parts.append(_seed(debate, language))
    parts.append(_body(debate, ask, relayed, language))
    return "\n\n".join(parts)


def _body(debate: Debate, ask: AskDebater, relayed: Turn | None, language: str) -> str:
    common = {
        "round": str(ask.round),
        "max_rounds": str(debate.max_rounds),
        "additions": _additions(ask, language),
    }
    if relayed is None:
        proposal = debate.proposal
        return prompts.load(
            "debate_opening",
            language,
            topic=proposal.topic,
            question=proposal.question,
            context=proposal.context,
            opponent=SEAT_NAMES[ask.seat.opponent],
            **common,
        )
    if relayed.seat is ask.seat:
        # The same seat speaks twice in a row (a new round drawn it first, or the other's
        # turn was skipped): there is nothing new to relay.
        return prompts.load(
            "debate_continue", language, opponent=SEAT_NAMES[ask.seat.opponent], **common
        )
    # shown(): a lone surrogate cannot go into a process argument or a Discord message.
    reply = shown(relayed.text)
    return prompts.load(
        "debate_relay", language, opponent=SEAT_NAMES[relayed.seat], reply=reply, **common
    )


def _additions(ask: AskDebater, language: str) -> str:
    """The moderator's additions: the people's answer and the moderator's note."""
    lines = []
    if ask.user_answer:
        lines.append(prompts.load("debate_user_answer", language, answer=ask.user_answer))
    if ask.note:
        lines.append(prompts.load("debate_note", language, note=ask.note))
    return "\n".join(lines)


def _seed(debate: Debate, language: str) -> str:
    return prompts.load(
        "debate_resume_seed",
        language,
        topic=debate.proposal.topic,
        question=debate.proposal.question,
        summary=debate.summary or "-",
        working_document=debate.working_document or "-",
    )
