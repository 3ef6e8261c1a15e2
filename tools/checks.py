"""What a health check says about one outside part (used by `debate-room doctor`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Status(enum.StrEnum):
    """A check's verdict."""

    OK = "ok"
    MISSING = "missing"  # not configured: fine unless the part is required
    FAILING = "failing"


@dataclass(frozen=True)
class Check:
    """One part's verdict and the reason a person needs."""

    part: str
    status: Status
    detail: str = ""

    def line(self) -> str:
        """The printed line."""
        return f"{self.part:<10} {self.status.value:<8} {self.detail}".rstrip()
