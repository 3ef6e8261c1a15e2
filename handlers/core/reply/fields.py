"""The values of a reply's JSON block, kept whole, and how the unused ones are shown.

Pure: no I/O. Objects keep every key/value pair (duplicates too) and numbers keep the digits
the debater wrote, so that showing them loses nothing. Walks are iterative: a block may nest
as deep as the decoder allows.
"""

from __future__ import annotations

from typing import TypeAlias

MAX_INDENT = 8  # deeper levels are shown at this indent: nesting must not grow text quadratically


class Num(str):
    """A JSON number (or NaN/Infinity) exactly as written."""

    __slots__ = ()


class Obj(tuple[tuple[str, "Value"], ...]):
    """A JSON object as its key/value pairs, in order, duplicates kept."""

    __slots__ = ()


Value: TypeAlias = "str | bool | Obj | list[Value] | None"


def shown(text: str) -> str:
    """`text` as Discord and the wiki can carry it: lone surrogates and NUL as `\\uXXXX`."""
    if "\x00" not in text and encodable(text):
        return str(text)
    # The encoder writes a lone surrogate as `\udXXX` itself, in C: a callback per character
    # cost a second per megabyte of them. NUL is valid UTF-8, so it is replaced first.
    escaped = text.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace")
    return escaped.decode("utf-8")


def encodable(text: str) -> bool:
    """Whether `text` holds no lone surrogate (encoding is far faster than a regex search)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def render_extra(pairs: list[tuple[str, Value]]) -> str:
    """The pairs as a Markdown list, nested values indented, every string shown whole."""
    lines: list[str] = []
    stack: list[tuple[int, str | None, Value]] = [(0, k, v) for k, v in reversed(pairs)]
    while stack:
        depth, label, value = stack.pop()
        head = "  " * min(depth, MAX_INDENT) + "- " + (f"{label}: " if label is not None else "")
        if isinstance(value, Obj):
            lines.append(head + ("{}" if not value else ""))
            stack.extend((depth + 1, k, v) for k, v in reversed(value))
        elif isinstance(value, list):
            lines.append(head + ("[]" if not value else ""))
            stack.extend((depth + 1, None, v) for v in reversed(value))
        else:
            lines.append(head + _scalar(value))
    return "\n".join(line.rstrip(" ") if line.endswith(": ") else line for line in lines)


def _scalar(value: str | bool | None) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
