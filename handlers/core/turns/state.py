"""The turns' slice of the debate: the round, the open asks, and who spoke. Pure data."""

from __future__ import annotations

from dataclasses import dataclass

from handlers.core.kinds import Stance


@dataclass(frozen=True)
class OpenAsk:
    """One participant asked in the current step, whose answer has not come yet."""

    participant: str
    turn: int  # the number its reply will have
    attempt: int = 0  # retries of this ask
    fresh_session: bool = False  # start a new session (the old one is gone)
    paused: bool = False  # its seat hit a limit: asked again when the debate's pause ends


@dataclass(frozen=True)
class Floor:
    """Who speaks: the round, the current step's open asks, and every stored turn's seat."""

    round: int = 0
    order: tuple[str, ...] = ()  # the current round's speaking order (participant ids)
    spoken: tuple[str, ...] = ()  # participants that spoke (or were skipped) this round
    speaker: str | None = None  # who speaks (or is asked to) now; the first of `asked`
    turns: int = 0  # the highest turn number stored so far
    attempt: int = 0  # retries of the current ask (a one-ask step; mirrors `asked`)
    skipped: int = 0  # consecutive skipped asks
    step: str = ""  # the format's name for the current step
    asked: tuple[OpenAsk, ...] = ()  # the current step's answers still awaited
    step_turns: tuple[int, ...] = ()  # turns stored in the current step
    log: tuple[tuple[int, str], ...] = ()  # (turn, participant) of every stored turn
    # Asks still being answered when the debate began to end: an answer that comes anyway (it
    # was paid for) is stored, posted and logged before the end.
    late: tuple[OpenAsk, ...] = ()
    stances: tuple[tuple[str, Stance], ...] = ()
    unquoted: tuple[tuple[int, str], ...] = ()  # (turn, participant): concessions with no quote
    faltered: tuple[str, ...] = ()  # seats that failed or were skipped, named at the end
