"""Shortening that says so: the head of a text, then a note of how much was left out.

Pure: no I/O. The note is the caller's (localized, naming where the whole text is); the
default says only how many characters are missing; `gist` is the one-line cut with `…`.
"""

from __future__ import annotations

from collections.abc import Callable


def omitted_note(omitted: int) -> str:
    """The language-neutral note: `… (+1,234)`."""
    return f"… (+{omitted:,})"


def shorten(text: str, limit: int, note: Callable[[int], str] = omitted_note) -> str:
    """`text` whole when it fits in `limit` characters; else its head and `note(omitted)`."""
    if len(text) <= limit:
        return text
    omitted = len(text) - limit
    for _ in range(4):  # the note's length depends on the count it prints: settle it
        tail = note(omitted)
        keep = max(limit - len(tail), 0)
        if len(text) - keep == omitted:
            break
        omitted = len(text) - keep
    tail = note(len(text) - keep)
    return (text[:keep] + tail)[:limit] if len(tail) <= limit else tail[:limit]


def gist(text: str, limit: int) -> str:
    """The text on one line, cut at `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
