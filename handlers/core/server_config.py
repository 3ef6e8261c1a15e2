"""What an approver set for one server or channel over the global defaults (`/debate config`)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from handlers.core.formats import formats_for
from handlers.core.i18n import LANGUAGES
from handlers.core.participants import (
    MAX_LABEL_CHARS,
    Participant,
    RosterError,
    RosterTooLong,
    parse_roster,
)
from handlers.core.probability import probability_of

MAX_ROUNDS = 50  # as the MAX_ROUNDS setting allows
PROBLEM_PARAMS = {"limit": MAX_LABEL_CHARS}  # what a problem's words name


@dataclass(frozen=True)
class ServerConfig:
    """A server's or a channel's choices; an empty field keeps the default under it."""

    language: str = ""
    format: str = ""
    rounds: int = 0
    roster: str = ""  # as PARTICIPANTS writes it
    # Detection's threshold, as text so that "0" is a choice and "" the default (the
    # DETECT_MIN_CONFIDENCE setting): a card needs a probability at least this.
    threshold: str = ""

    def over(self, under: ServerConfig) -> ServerConfig:
        """These choices, and `under`'s where this one chose nothing (a channel over its server)."""
        return replace(
            under, **{f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}
        )

    def detection_threshold(self) -> float | None:
        """The threshold chosen, or None: the global default (also for one that no longer
        reads, as a roster does)."""
        return probability_of(self.threshold) if self.threshold else None

    def participants(self, default: tuple[Participant, ...]) -> tuple[Participant, ...]:
        """The roster chosen, else `default`: also when the one stored no longer reads (kept
        before a bound that refuses it now), so that a card can still be proposed there."""
        try:
            return parse_roster(self.roster) if self.roster else default
        except RosterError:
            return default


def config_problem(config: ServerConfig, default: tuple[Participant, ...]) -> str:
    """The locale key of what is wrong with a config, or '' (nothing stored when wrong); its
    words take `PROBLEM_PARAMS`."""
    if config.language and config.language not in LANGUAGES:
        return "admin.bad_language"
    if config.rounds and not 1 <= config.rounds <= MAX_ROUNDS:
        return "admin.bad_rounds"
    if config.threshold and probability_of(config.threshold) is None:
        return "admin.bad_threshold"
    try:
        roster = parse_roster(config.roster) if config.roster else default
    except RosterTooLong:
        return "admin.roster_too_long"
    except RosterError:
        return "admin.bad_roster"
    if config.format and config.format not in formats_for(roster):
        return "admin.bad_format"
    return ""


def given_threshold(text: str) -> str:
    """A threshold as typed (`0.7`, `0,7`, ` .70 `) in the one form it is kept in (`0.7`);
    what does not read is kept as typed, for `config_problem` to refuse."""
    typed = text.strip().replace(",", ".")
    number = probability_of(typed)
    return f"{number:g}" if number is not None else text.strip()
