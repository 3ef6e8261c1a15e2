"""Participants: who speaks in a debate, through which backend, and how the roster is set."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from handlers.core.shorten import gist


class Backend(enum.StrEnum):
    """What carries a participant's voice: one backend may seat several participants."""

    AG_RELAY = "ag-relay"  # Gemini in the Antigravity IDE, through a Discord relay
    CLAUDE_CLI = "claude-cli"  # the `claude` CLI as a subprocess
    GEMINI_CLI = "gemini-cli"  # the `gemini` CLI as a subprocess


# A participant's id ("ag", "claude", "gemini", "claude-2", ...): what turns, orders and
# stances name. The two ids of the default roster are the old fixed seats' values, so
# debates stored before participants existed load unchanged.
AG = "ag"
CLAUDE = "claude"
GEMINI = "gemini"

COLOUR_AG = 0x2ECC71  # green
COLOUR_CLAUDE = 0x3498DB  # blue
COLOUR_GEMINI = 0x9B59B6  # purple
COLOUR_OTHER = 0x1ABC9C  # teal: a participant configured without a colour


@dataclass(frozen=True)
class Participant:
    """One voice in a debate: who speaks, through which backend, shown how."""

    id: str
    backend: Backend
    name: str
    colour: int = COLOUR_OTHER
    persona: str = ""  # one line of role ("security reviewer"), told to the participant
    model: str = ""  # a model of its own (e.g. the adversarial Reconciler's); blank: the backend's

    def labelled(self, name: str = "") -> str:
        """The seat named once: `AG (architect)`, its role beside its name (`name`, a front
        end's word for the seat, when it has no role); never a second bracket after a name
        that carries one already (`AG (Gemini)` takes its roster name `AG` with a role)."""
        if not self.persona:
            return name or self.name
        return f"{self.name} ({self.persona})"


DEFAULT_ROSTER: tuple[Participant, ...] = (
    Participant(AG, Backend.AG_RELAY, "AG", COLOUR_AG),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude", COLOUR_CLAUDE),
)


_ID = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
# A name or persona is shown in the thread's embeds, the status line, the private replies and
# every prompt: a sane bound keeps each of them within Discord's limits.
MAX_LABEL_CHARS = 80
_BACKEND_COLOURS = {
    Backend.AG_RELAY: COLOUR_AG,
    Backend.CLAUDE_CLI: COLOUR_CLAUDE,
    Backend.GEMINI_CLI: COLOUR_GEMINI,
}
_DEFAULT_NAMES = {AG: "AG", CLAUDE: "Claude", GEMINI: "Gemini"}


class RosterError(ValueError):
    """A PARTICIPANTS entry that cannot be read; the message says which and why."""


class RosterTooLong(RosterError):
    """A name or persona longer than MAX_LABEL_CHARS (it would not fit where it is shown)."""


def parse_roster(text: str) -> tuple[Participant, ...]:
    """`id:backend[:name[:persona]]`, comma-separated (e.g. `ag:ag-relay,claude:claude-cli,
    gemini:gemini-cli:Gemini`); blank: the default roster (AG and Claude)."""
    if not text.strip():
        return DEFAULT_ROSTER
    roster: list[Participant] = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        pid, _, rest = entry.partition(":")
        backend_name, _, rest = rest.partition(":")
        name, _, persona = rest.partition(":")
        pid = pid.strip().lower()
        if not _ID.match(pid):
            raise RosterError(f"{entry!r}: the id must be lowercase letters, digits or '-'")
        try:
            backend = Backend(backend_name.strip().lower())
        except ValueError:
            known = ", ".join(b.value for b in Backend)
            raise RosterError(f"{entry!r}: the backend must be one of {known}") from None
        if any(member.id == pid for member in roster):
            raise RosterError(f"{entry!r}: the id {pid!r} is given twice")
        taken = any(m.backend is backend for m in roster)  # its colour went to the first
        colour = COLOUR_OTHER if taken else _BACKEND_COLOURS[backend]
        shown = name.strip() or _DEFAULT_NAMES.get(pid, pid)
        longest = max(len(shown), len(persona.strip()))
        if longest > MAX_LABEL_CHARS:
            raise RosterTooLong(
                f"{gist(entry, 40)!r}: a name or persona of {longest} characters;"
                f" at most {MAX_LABEL_CHARS}"
            )
        roster.append(Participant(pid, backend, shown, colour, persona.strip()))
    if len(roster) < 2:
        raise RosterError("a debate needs at least two participants")
    return tuple(roster)


def roster_text(roster: tuple[Participant, ...]) -> str:
    """The roster as PARTICIPANTS would spell it (for doctor and the banner)."""
    return ",".join(
        f"{m.id}:{m.backend.value}:{m.name}" + (f":{m.persona}" if m.persona else "")
        for m in roster
    )
