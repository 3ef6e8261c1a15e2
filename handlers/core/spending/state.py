"""What a debate costs and how much of Claude's allowance is left: pure data."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

# A turn's cost per backend when no earlier turn recorded one (the card says it is a default):
# a Claude turn with a whole brief, and a Gemini CLI turn; the AG relay reports none.
DEFAULT_TURN_USD = {"claude-cli": 0.10, "gemini-cli": 0.02}


@dataclass(frozen=True)
class Window:
    """Claude's usage window as the CLI last reported it (a `rate_limit_event`)."""

    status: str  # allowed, allowed_warning or rejected
    kind: str = ""  # five_hour, seven_day, ... (the window that binds)
    utilization: float | None = None  # 0..1, when reported
    resets_at: int = 0  # epoch seconds (0: not reported)


@dataclass(frozen=True)
class Spend:
    """A debate's money and Claude's limits: what each seat spent so far, the card's estimate,
    the budget, and the seats a limit holds back."""

    cost_usd: float = 0.0  # the whole debate's cost so far, in dollars
    seats: tuple[tuple[str, float], ...] = ()  # the cost so far per seat, in dollars
    per_turn: tuple[tuple[str, float], ...] = ()  # a turn's estimated cost per seat, at proposal
    recorded: int = 0  # the earlier turns the estimate came from (0: the stated defaults)
    typed: tuple[str, ...] = ()  # seats a person types at the keyboard: they cost nothing
    window: Window | None = None  # Claude's usage window when the card was posted
    budget_usd: float = 0.0  # the people's budget in dollars (0: rounds only)
    resumes_at: datetime | None = None  # a "limit" pause ends by itself then
    benched: tuple[str, ...] = ()  # seats refused until the people act (usage credits off)

    def of(self, seat: str) -> float:
        """What the seat spent so far."""
        return dict(self.seats).get(seat, 0.0)

    def spent(self, seat: str, cost: float, window: Window | None = None) -> Spend:
        """One more turn's cost on the seat's account (and the window it reported)."""
        seats = dict(self.seats) | {seat: self.of(seat) + cost}
        return replace(
            self,
            seats=tuple(sorted(seats.items())),
            window=window or self.window,
            cost_usd=self.cost_usd + cost,
        )

    def over(self, total: float) -> bool:
        """True once a dollar budget is set and `total` reached it."""
        return 0 < self.budget_usd <= total
