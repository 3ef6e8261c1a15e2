"""The string fields of one JSON object read while its text still arrives in pieces (pure).

`claude --json-schema` answers through the StructuredOutput tool, whose input the stream
carries as `input_json_delta` pieces of partial JSON, cut anywhere: inside a key, inside an
escape, between the two halves of a surrogate pair. `PartialFields` keeps the decoded value of
each wanted top-level string field so far, so the thread can show the reply as it is written.

Written here rather than taken from a library: the partial-JSON parsers on PyPI (partial-json-
parser, jiter's `partial_mode`) reparse the whole text on every piece (quadratic over a long
reply) or drop a string's unfinished tail; this reads each character once and keeps the tail.
Only the shown progress comes from here: the record is the CLI's validated `result`.
"""

from __future__ import annotations

import re

_PLAIN = re.compile(r'[^"\\]+')  # a run of a string's characters that needs no decoding
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HIGH = range(0xD800, 0xDC00)
_LOW = range(0xDC00, 0xE000)
_REPLACEMENT = "\ufffd"  # a lone surrogate, which no text sent on can carry


class PartialFields:
    """The top-level string fields `wanted` of one JSON object, fed piece by piece."""

    def __init__(self, wanted: tuple[str, ...]) -> None:
        self._wanted = frozenset(wanted)
        self._values: dict[str, list[str]] = {}  # each wanted field met so far, in order
        self._parts: list[str] = []  # the current string's decoded text
        self._depth = 0
        self._in_string = False
        self._is_key = False
        self._expect_key = False
        self._key = ""
        self._escape = ""  # "\\" after a backslash, "\\u12" while its hex digits arrive
        self._high = 0  # a high surrogate waiting for its low half
        self._captured = False  # the open string is a wanted field's value
        self._grew = False

    @property
    def values(self) -> dict[str, str]:
        """Each wanted field's value so far (a string still open: what arrived of it)."""
        return {key: "".join(parts) for key, parts in self._values.items()}

    def feed(self, piece: str) -> bool:
        """Take the next piece of the JSON text; True if a wanted value grew."""
        self._grew = False
        at, end = 0, len(piece)
        while at < end:
            if self._in_string:
                at = self._string(piece, at)
                continue
            char = piece[at]
            at += 1
            if char == '"':
                self._open_string()
            elif char in "{[":
                self._depth += 1
                self._expect_key = self._depth == 1 and char == "{"
            elif char in "}]":
                self._depth -= 1
            elif self._depth == 1 and char == ",":
                self._expect_key = True
            elif self._depth == 1 and char == ":":
                self._expect_key = False
        return self._grew

    def text(self, separator: str = "\n\n") -> str:
        """The wanted values so far, non-empty ones joined in the order they came."""
        return separator.join(value for value in self.values.values() if value)

    def _open_string(self) -> None:
        self._in_string = True
        self._is_key = self._depth == 1 and self._expect_key
        captured = not self._is_key and self._depth == 1 and self._key in self._wanted
        # A repeated key: as JSON reads it, the last value wins.
        self._parts = self._values.setdefault(self._key, []) if captured else []
        self._parts.clear()
        self._captured = captured

    def _string(self, piece: str, at: int) -> int:
        """Read on inside a string from `at` to its end or the piece's; the next position."""
        while at < len(piece):
            if self._escape:
                at = self._escaped(piece, at)
                continue
            plain = _PLAIN.match(piece, at)
            if plain is not None:
                self._emit(plain.group())
                at = plain.end()
                continue
            at += 1
            if piece[at - 1] == "\\":
                self._escape = "\\"
                continue
            self._close_string()  # the closing quote
            break
        return at

    def _escaped(self, piece: str, at: int) -> int:
        """One character of an escape; a finished one is emitted."""
        self._escape += piece[at]
        at += 1
        if self._escape[1] != "u":
            self._emit(_ESCAPES.get(self._escape[1], self._escape[1]))
            self._escape = ""
        elif len(self._escape) == 6:
            digits, self._escape = self._escape[2:], ""
            self._code_point(int(digits, 16) if _is_hex(digits) else ord(_REPLACEMENT))
        return at

    def _code_point(self, code: int) -> None:
        if code in _LOW and self._high:
            pair = chr(0x10000 + ((self._high - 0xD800) << 10) + (code - 0xDC00))
            self._high = 0
            self._emit(pair)
        elif code in _HIGH:
            self._emit("")  # an earlier high half left alone
            self._high = code
        else:
            self._emit(_REPLACEMENT if code in _LOW else chr(code))

    def _emit(self, text: str) -> None:
        if self._high:  # a high surrogate not followed by its low half
            self._high = 0
            self._parts.append(_REPLACEMENT)
            self._grew |= self._captured
        if text:
            self._parts.append(text)
            self._grew |= self._captured

    def _close_string(self) -> None:
        self._emit("")
        self._in_string = False
        if self._is_key:
            self._key = "".join(self._parts)


def _is_hex(digits: str) -> bool:
    return len(digits) == 4 and all(c in "0123456789abcdefABCDEF" for c in digits)
