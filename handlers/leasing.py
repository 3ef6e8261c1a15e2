"""What the engine asks of a lease when several processes share the debates (issue 20)."""

from __future__ import annotations

from typing import Protocol


class LeaseLost(Exception):
    """This process no longer holds the debate's lease: it must stop acting on that debate."""

    def __init__(self, debate_id: int) -> None:
        super().__init__(f"the lease of debate {debate_id} is lost")
        self.debate_id = debate_id


class LeaseGuard(Protocol):
    """Which debates this process may act on now."""

    def holds(self, debate_id: int) -> bool:
        """True while this process holds the debate's lease with time to spare."""
        ...


class EveryDebate:
    """The guard of a process that runs alone (SQLite): it may act on every debate."""

    def holds(self, debate_id: int) -> bool:
        """Always true."""
        return True
