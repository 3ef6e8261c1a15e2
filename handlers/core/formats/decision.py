"""The decision a debate reached, as an Architecture Decision Record holds it (MADR's parts):
what drove it, the options weighed with their pros and cons, the option chosen and why, its
consequences and how to confirm it. Each format fills one from its own outcome
(`Format.decision`); `tools/wiki/adr.py` renders it. Pure data.

Every text is keyed (keys.py): locale keys as `⟦area.key⟧`, anything a model or a person wrote
embedded `verbatim`, so the renderer fills it in the debate's language."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from handlers.core.formats.keys import verbatim as v
from handlers.core.kinds import Outcome
from handlers.core.model import Debate
from handlers.core.moderation.claims import ClaimStatus


class Status(enum.StrEnum):
    """MADR's status of the record (the front matter keeps MADR's English word: tools read it)."""

    ACCEPTED = "accepted"
    PROPOSED = "proposed"  # no decision was reached: the people still have to take one
    REJECTED = "rejected"  # the debate decided against the proposal


@dataclass(frozen=True)
class ConsideredOption:
    """One option the debate weighed: its name, what it is, and the arguments for and against."""

    name: str
    about: str = ""
    good: tuple[str, ...] = ()
    bad: tuple[str, ...] = ()


@dataclass(frozen=True)
class DecisionRecord:
    """A format's outcome in MADR's parts; an empty part is marked not applicable when rendered."""

    status: Status
    drivers: tuple[str, ...] = ()
    options: tuple[ConsideredOption, ...] = ()
    chosen: str = ""  # the chosen option's words ('': none was chosen)
    because: str = ""  # the justification
    good: tuple[str, ...] = ()  # consequences
    bad: tuple[str, ...] = ()
    confirmation: tuple[str, ...] = ()  # how the team checks the decision holds
    more: tuple[str, ...] = ()  # open questions and what the format adds
    undecided: str = ""  # why nothing was chosen, where the format knows better than the outcome


# Outcomes that reached a decision the debate stands behind.
_DECIDED = frozenset({Outcome.CONSENSUS, Outcome.PEOPLE, Outcome.VERDICT})


def status_of(debate: Debate) -> Status:
    """Accepted when the debate reached its decision; proposed when it ended without one
    (the round limit, a Stop, a failure, or still running)."""
    return Status.ACCEPTED if debate.ending.outcome in _DECIDED else Status.PROPOSED


def concluded(debate: Debate) -> DecisionRecord:
    """The record from the moderator's Conclusion (free's outcome, and any format's when it
    ended before writing its own): each participant's position an option, its claims on the
    board its pros and cons; the decision chosen because of what was agreed; the open issues
    its costs; the next steps its confirmation."""
    conclusion = debate.ending.conclusion
    status = status_of(debate)
    if conclusion is None:
        return DecisionRecord(status, more=_failure(debate))
    options = tuple(
        ConsideredOption(v(debate.name_of(seat)), v(position), *_claims_of(debate, seat))
        for seat, position in conclusion.positions
    )
    decided = status is Status.ACCEPTED and bool(conclusion.decision.strip())
    agreed = tuple(v(point) for point in conclusion.agreed)
    return DecisionRecord(
        status,
        drivers=tuple(v(claim.text) for claim in debate.moderation.claims) or agreed,
        options=options,
        chosen=v(conclusion.decision.strip()) if decided else "",
        because=f"⟦adr.because_{debate.ending.outcome}⟧" if decided else "",
        good=agreed,
        bad=tuple(v(issue) for issue in conclusion.open_issues),
        confirmation=tuple(v(step) for step in conclusion.next_steps),
        more=(
            *(() if decided else (v(conclusion.decision),) if conclusion.decision else ()),
            *_failure(debate),
        ),
    )


def _claims_of(debate: Debate, seat: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A participant's claims: the agreed ones for its option, the contested ones against."""
    held = [claim for claim in debate.moderation.claims if seat in claim.holders]
    good = tuple(v(c.text) for c in held if c.status is ClaimStatus.AGREED)
    bad = tuple(v(c.text) for c in held if c.status is ClaimStatus.CONTESTED)
    return good, bad


def _failure(debate: Debate) -> tuple[str, ...]:
    """Why the debate ended without its decision, as the record's further information."""
    outcome = debate.ending.outcome
    if outcome is None or outcome in _DECIDED:
        return ()
    reason = f": {v(debate.ending.failure)}" if debate.ending.failure else ""
    return (f"⟦adr.ended_{outcome.value}⟧{reason}",)
