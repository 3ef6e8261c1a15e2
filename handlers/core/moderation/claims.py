"""The live claim board: the debate's claims with ids (C1, C2, ...), who holds each,
and its status, kept from the moderator's judgements (the same request, no extra one). Pure."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from handlers.core.shorten import gist

MAX_CLAIMS = 40  # a board people can read; later new claims are not added
CLAIM_CHARS = 300  # one claim's wording, as the moderator gave it (cut with a mark)


class ClaimStatus(enum.StrEnum):
    """Where a claim stands."""

    OPEN = "open"
    CONTESTED = "contested"
    AGREED = "agreed"
    WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class Claim:
    """One claim of the debate."""

    id: str  # C1, C2, ...
    text: str
    holders: tuple[str, ...] = ()  # participant ids
    status: ClaimStatus = ClaimStatus.OPEN
    turn: int = 0  # the judged turn whose judgement last changed it (0: stored before)


@dataclass(frozen=True)
class ClaimUpdate:
    """The moderator's word on one claim: a new one (no id), or a known id's new status."""

    id: str = ""
    text: str = ""
    holder: str = ""  # a participant id
    status: ClaimStatus = ClaimStatus.OPEN


def updated(
    claims: tuple[Claim, ...], updates: tuple[ClaimUpdate, ...], ids: tuple[str, ...], turn: int = 0
) -> tuple[Claim, ...]:
    """The board after the moderator's updates on judging `turn`. A known id changes status
    (and gains the holder); a claim without a known id is added under the next id; a holder
    that is not a participant is left out. A claim's wording never changes once recorded."""
    board = {claim.id: claim for claim in claims}
    for update in updates:
        holder = (update.holder.strip().lower(),) if update.holder.strip().lower() in ids else ()
        known = board.get(update.id.strip().upper())
        if known is not None:
            holders = known.holders + tuple(h for h in holder if h not in known.holders)
            if (update.status, holders) != (known.status, known.holders):
                board[known.id] = replace(known, status=update.status, holders=holders, turn=turn)
        elif update.text.strip() and len(board) < MAX_CLAIMS:
            new_id = f"C{len(board) + 1}"
            board[new_id] = Claim(
                new_id, gist(update.text, CLAIM_CHARS), holder, update.status, turn
            )
    return tuple(board.values())


def as_lines(claims: tuple[Claim, ...]) -> str:
    """`C1 [claude] open: ...`, one a line: the moderator's view of the board."""
    return "\n".join(
        f"{c.id} [{', '.join(c.holders) or '-'}] {c.status.value}: {c.text}" for c in claims
    )
