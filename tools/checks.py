"""What a health check says about one outside part (used by `debate-room doctor`)."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

_REPR = re.compile(r"<[\w.]+ object at 0x[0-9a-f]+>")


class Status(enum.StrEnum):
    """A check's verdict."""

    OK = "ok"
    MISSING = "missing"  # not configured: fine unless the part is required
    WARNING = "warning"  # works, but not as the user probably wants
    FAILING = "failing"


@dataclass(frozen=True)
class Check:
    """One part's verdict and the reason a person needs."""

    part: str
    status: Status
    detail: str = ""
    notes: tuple[str, ...] = ()  # more lines to print under it (an invite URL, say)

    def line(self) -> str:
        """The printed line."""
        return f"{self.part:<10} {self.status.value:<8} {scrub(self.detail)}".rstrip()

    def lines(self) -> list[str]:
        """The line, then its notes, indented."""
        return [self.line(), *(f"{'':<19} {note}" for note in self.notes)]


def scrub(text: str) -> str:
    """One line without Python object reprs (`ssl:<ssl.SSLContext object at 0x…>`)."""
    text = _REPR.sub("", text).replace("\n", " ")
    text = re.sub(r"\s*\[\s*\]|ssl:\S*", " ", text)
    return " ".join(text.split())


def one_line(exc: BaseException) -> str:
    """An exception as one readable line: its kind and message, without object reprs."""
    text = scrub(str(exc))
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
