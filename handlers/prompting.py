"""Render what a debater receives: the format's brief pieces, filled from prompts/."""

from __future__ import annotations

import prompts
from handlers.core.claims import as_lines
from handlers.core.effects import AskDebater
from handlers.core.formats import format_named
from handlers.core.formats.base import BriefInput, Piece
from handlers.core.model import Debate, PeopleLine, Turn
from handlers.core.reply_fields import shown

LANGUAGE_NAMES = {
    "ko": "Korean (한국어)",
    "en": "English",
    "pt-BR": "Brazilian Portuguese (português do Brasil)",
}


def participant_system_prompt(language: str) -> str:
    """The debaters' system prompt: the reply contract, documents only, the language."""
    return prompts.load("debate_participant", language, language_name=LANGUAGE_NAMES[language])


def compose_turn_prompt(
    debate: Debate,
    ask: AskDebater,
    shown: Turn | tuple[Turn, ...] | None,
    language: str,
    people: tuple[PeopleLine, ...] = (),
) -> str:
    """The whole text for `ask.seat`, as the debate's format builds it from what it may see."""
    turns = () if shown is None else (shown,) if isinstance(shown, Turn) else shown
    brief = format_named(debate.format).brief(BriefInput(debate, ask, turns, people))
    text = render_brief(brief, ask, people, language)
    first = not any(who == ask.seat for _, who in debate.log)
    if first and debate.proposal.precedents:  # with the agenda: related earlier decisions
        found = "\n".join(f"- {p.title}: {p.url}" for p in debate.proposal.precedents)
        text += "\n\n" + prompts.load("debate_precedents", language, precedents=found)
    if debate.claims:  # the live claim board (issue 18), for every format that keeps one
        text += "\n\n" + prompts.load("debate_claims", language, claims=as_lines(debate.claims))
    return text


def render_brief(
    pieces: tuple[Piece, ...], ask: AskDebater, people: tuple[PeopleLine, ...], language: str
) -> str:
    """The whole text for one participant; every relayed reply appears in it byte for byte."""
    extra = additions(ask, people, language)
    parts = []
    for piece in pieces:
        values = dict(piece.values)
        if piece.additions:
            values["additions"] = extra
        parts.append(prompts.load(piece.template, language, **values))
    # shown(): a lone surrogate cannot go into a process argument or a Discord message.
    return shown("\n\n".join(parts))


def render_pieces(pieces: tuple[Piece, ...], language: str) -> str:
    """A moderator task's prompt: its pieces filled from prompts/ (no people's additions:
    the format puts what a task needs into its values)."""
    return "\n\n".join(prompts.load(p.template, language, **dict(p.values)) for p in pieces)


def additions(ask: AskDebater, people: tuple[PeopleLine, ...], language: str) -> str:
    """The moderator's additions: what the people said (attributed, verbatim), and its note."""
    lines = []
    if ask.user_answer:  # an ask stored before people's lines existed
        lines.append(prompts.load("debate_user_answer", language, answer=ask.user_answer))
    for line in people:
        if line.question:
            lines.append(
                prompts.load(
                    "debate_people_answered",
                    language,
                    who=line.who,
                    question=line.question,
                    answer=line.text,
                )
            )
        else:
            lines.append(prompts.load("debate_people_said", language, who=line.who, text=line.text))
    if ask.note:
        lines.append(prompts.load("debate_note", language, note=ask.note))
    return "\n".join(lines)
