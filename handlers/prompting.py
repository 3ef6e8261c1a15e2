"""Render what a debater receives: the format's brief pieces, filled from prompts/."""

from __future__ import annotations

from dataclasses import replace

import prompts
from handlers.core.anonymous.peers import anonymize, is_on, letters, peer_names
from handlers.core.effects import AskDebater
from handlers.core.formats import format_named
from handlers.core.formats.base import BriefInput, Piece, PieceValue
from handlers.core.model import Debate, PeopleLine, Precedent, Turn
from handlers.core.moderation.claims import as_lines
from handlers.core.reply.fields import shown

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
    *,
    person: bool = False,
) -> str:
    """The whole text for `ask.seat`, as the debate's format builds it from what it may see;
    for a `person` typing the seat, the others' words instead of their raw replies."""
    turns = () if shown is None else (shown,) if isinstance(shown, Turn) else shown
    fmt = format_named(debate.setup.format)
    if person:
        turns = tuple(replace(turn, text=fmt.words(debate, turn)) for turn in turns)
    brief = fmt.brief(BriefInput(debate, ask, turns, people))
    text = render_brief(brief, ask, people, language, person=person)
    last_own = max((n for n, who in debate.floor.log if who == ask.seat), default=0)
    if not last_own and debate.proposal.precedents:  # with the agenda: earlier decisions
        found = "\n".join(_precedent(p, language) for p in debate.proposal.precedents)
        text += "\n\n" + prompts.load("debate_precedents", language, precedents=found)
    text += _claims(debate, last_own, ask.fresh_session, language)
    if debate.steelman.owed(ask.seat, ask.turn):  # a person pressed Steelman
        text += "\n\n" + prompts.load("debate_steelman", language, user=debate.steelman.by)
    return _anonymous(debate, ask.seat, text, turns, language) if is_on(debate) else text


def _anonymous(debate: Debate, seat: str, text: str, turns: tuple[Turn, ...], lang: str) -> str:
    """The brief with every debater's names as letters, and the reader told its own (last:
    a format may read its first line)."""
    roles = (m.id for m in format_named(debate.setup.format).seats_added(debate.setup.options))
    hidden = anonymize(text, peer_names(debate, seat, turns, roles))
    return hidden + "\n\n" + prompts.load("debate_anonymous", lang, letter=letters(debate)[seat])


def _precedent(found: Precedent, language: str) -> str:
    """One earlier decision, with the words it matched on."""
    because = ", ".join(found.because) or "-"
    return prompts.load(
        "debate_precedent", language, title=found.title, url=found.url, because=because
    ).strip()


def _claims(debate: Debate, last_own: int, fresh_session: bool, language: str) -> str:
    """The live claim board: whole on a participant's first turn or in a new
    session; after that only what changed since its last turn (the rest it has)."""
    whole = not last_own or fresh_session
    # The judgement of the participant's last turn came after its brief: its changes count.
    changed = tuple(claim for claim in debate.moderation.claims if claim.turn >= last_own)
    claims = as_lines(debate.moderation.claims if whole else changed)
    if not claims:
        return ""
    name = "debate_claims" if whole else "debate_claims_changed"
    return "\n\n" + prompts.load(name, language, claims=claims)


def render_brief(
    pieces: tuple[Piece, ...],
    ask: AskDebater,
    people: tuple[PeopleLine, ...],
    language: str,
    *,
    person: bool = False,
) -> str:
    """The whole text for one participant; every relayed reply appears in it byte for byte.
    A `${reply_rule}` is the piece's reply contract (`rule`), or for a person its person's
    wording (`<rule>_person`): asked in their own words, never for the machine's JSON."""
    extra = additions(ask, people, language)
    parts = []
    for piece in pieces:
        given = {"additions": extra} if piece.additions else {}
        if "reply_rule" in prompts.placeholders(piece.template, language):
            given["reply_rule"] = prompts.load(piece.rule + ("_person" if person else ""), language)
        parts.append(_filled(piece, language, given))
    # shown(): a lone surrogate cannot go into a process argument or a Discord message.
    return shown("\n\n".join(parts))


def render_pieces(pieces: tuple[Piece, ...], language: str) -> str:
    """A moderator task's prompt: its pieces filled from prompts/ (no people's additions:
    the format puts what a task needs into its values)."""
    return "\n\n".join(_filled(p, language) for p in pieces)


def render_value(value: PieceValue, language: str) -> str:
    """A piece's value as text: a nested piece filled (without its final newline), lines joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, Piece):
        return _filled(value, language).rstrip("\n")
    return "\n".join(render_value(line, language) for line in value)


def _filled(piece: Piece, language: str, given: dict[str, str] | None = None) -> str:
    values = {name: render_value(value, language) for name, value in piece.values}
    return prompts.load(piece.template, language, **values, **(given or {}))


def additions(ask: AskDebater, people: tuple[PeopleLine, ...], language: str) -> str:
    """The moderator's additions: what the people said (attributed, verbatim), and its note."""
    lines = []
    for line in people:
        if line.question:
            answered = {"question": line.question, "answer": line.text}
            lines.append(prompts.load("debate_people_answered", language, who=line.who, **answered))
        else:
            lines.append(prompts.load("debate_people_said", language, who=line.who, text=line.text))
    if ask.note:
        lines.append(prompts.load("debate_note", language, note=ask.note))
    return "\n".join(lines)
