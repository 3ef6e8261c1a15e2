"""The people's slice of the debate: what they said, their question, the open pause. Pure data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UserQuestion:
    """A question the moderator put to the people, with answer options."""

    text: str
    options: tuple[str, ...] = ()
    form: str = ""  # a card option the people may answer in a form (Discord: a modal) too


@dataclass(frozen=True)
class PeopleLine:
    """Something a person said to the debate: an answer to a question, or a typed message."""

    who: str
    text: str  # verbatim
    question: str = ""  # the question it answers; empty for a message typed in the thread


@dataclass(frozen=True)
class People:
    """What the people said, what each debater heard of it, their open question, and the
    pauses that wait for their word."""

    lines: tuple[PeopleLine, ...] = ()  # what the people said, in order
    heard: tuple[tuple[str, int], ...] = ()  # per participant: how many of `lines` it got
    user_question: UserQuestion | None = None
    debater_question: str = ""  # a debater's question to the people, not yet put to them
    first_next_round: str | None = None  # asked a question: answers first next round
    paused: str = ""  # waiting for the people's word: "budget", "converging", "limit", ...
    pauses: int = 0  # how many pauses so far: the number names each pause's one answer
