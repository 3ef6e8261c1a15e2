"""Steelman's slice of the debate: who must restate the other side first, and which turns
did. Pure data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Steelman:
    """The seats still to steelman, each from the first turn its brief can carry it (an ask
    already running when it was asked for keeps its brief), and the turns that did."""

    due: tuple[tuple[str, int], ...] = ()  # (seat, the first turn number it applies to)
    by: str = ""  # who asked for it last
    turns: tuple[int, ...] = ()  # the turns that restated the other side first

    def owed(self, seat: str, turn: int) -> bool:
        """True if the seat's turn `turn` must restate the other side first."""
        return any(seat == due and turn >= first for due, first in self.due)
