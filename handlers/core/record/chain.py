"""The record's hash chain (scheme `chain v1`): pure, no I/O.

Each turn's link is the SHA-256 of the scheme, the previous link, the seat, the turn number,
the SHA-256 of the adapter's raw output and the SHA-256 of the reply as the record shows it
(`shown.turn_body`, normalised: `\\n` line ends, no trailing spaces, no blank lines). The first
link's previous link is the debate's genesis, bound to its id. The head is the last link.

Every turn's section, in the export file and in the Round-Log, starts with a hidden marker line
(`turn_marker`) with its number, seat, raw hash and shown hash; the closing page (the
Conclusion, or the format's own) and the export end with the head, visible, and a hidden line
(`head_marker`) listing every link, so `verify` names the first turn that changed from a
file or the pages alone. The scheme's version is in every marker: a later change of rendering
makes a new version, and a record of an unknown version is refused, never judged.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from handlers.core.fences import Fence, step
from handlers.core.formats import format_named
from handlers.core.i18n import strings_in
from handlers.core.model import Debate, Turn, WikiPage
from handlers.core.record.shown import MARKER_PREFIX, turn_body, visible

Translate = Callable[..., str]

SCHEME = "chain v1"
_VERSION = "v1"
_ANY_MARKER = re.compile(re.escape(MARKER_PREFIX) + r"(?P<what>[^\n]*?)-->")
_TURN = re.compile(
    r"chain (?P<version>\S+) turn=(?P<number>[0-9]+) seat=(?P<seat>\S+) "
    r"raw=(?P<raw>[0-9a-f]{64}) shown=(?P<shown>[0-9a-f]{64}) "
)
_HEAD = re.compile(
    r"chain (?P<version>\S+) head debate=(?P<debate>[0-9]+) head=(?P<head>[0-9a-f]{64}) "
    r"links=(?P<links>\S*) "
)
_OTHER_VERSION = re.compile(r"chain (?P<version>v[0-9]+) ")
_PIECE = re.compile(r"entry [0-9]+:round-log:(?P<number>[0-9]+):[0-9]+ ")
_END = f"chain {_VERSION} end "
_NEXT_PART = "next-part "  # the end of a full Round-Log part (tools.wiki.round_log)


_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]")
_HEX2 = re.compile(r"[0-9A-F]{2}")


def _seat_out(seat: str) -> str:
    """A seat id as a marker carries it: each byte outside `[A-Za-z0-9_.-]` as `%XX`."""
    return _UNSAFE.sub(lambda c: "".join(f"%{b:02X}" for b in c.group().encode()), seat)


def _seat_in(carried: str) -> str:
    """The seat id a marker carries."""
    out, index = bytearray(), 0
    while index < len(carried):
        if carried[index] == "%" and _HEX2.fullmatch(carried[index + 1 : index + 3]):
            out.append(int(carried[index + 1 : index + 3], 16))
            index += 3
        else:
            out += carried[index].encode()
            index += 1
    return out.decode("utf-8", "replace")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def genesis(debate_id: int) -> str:
    """The link before the first turn: bound to the debate, so no other debate's turns fit."""
    return _sha(f"debate-room {SCHEME} genesis {debate_id}")


def normalised(text: str) -> str:
    """A reply as shown, less what a wiki or an editor changes without a reader seeing it:
    `\\n` line ends, no trailing white space on a line, no blank lines."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines if line.strip())


def shown_sha(text: str) -> str:
    """The SHA-256 of a reply as shown, normalised."""
    return _sha(normalised(text))


def next_link(previous: str, seat: str, number: int, raw_sha: str, shown: str) -> str:
    """One turn's link: it covers the previous link, the seat, the number, the raw output's
    hash and the shown reply's hash."""
    return _sha("\n".join((SCHEME, previous, seat, str(number), raw_sha, shown)))


@dataclass(frozen=True)
class Link:
    """One turn in the chain."""

    number: int
    seat: str
    raw_sha: str
    shown_sha: str
    link: str


def shown_text(turn: Turn, t: Translate) -> str:
    """The reply as the record shows it (on a page, in a file: every character visible)."""
    return visible(turn_body(turn, t))


def links(debate: Debate, turns: Iterable[Turn], t: Translate | None = None) -> tuple[Link, ...]:
    """Every stored turn's link, in turn order (one turn per number)."""
    said = t or strings_in(debate.spoken_in("ko"))
    ordered = sorted({turn.number: turn for turn in turns}.values(), key=lambda turn: turn.number)
    found: list[Link] = []
    previous = genesis(debate.id)
    for turn in ordered:
        shown = shown_sha(shown_text(turn, said))
        previous = next_link(previous, turn.seat, turn.number, turn.sha256, shown)
        found.append(Link(turn.number, turn.seat, turn.sha256, shown, previous))
    return tuple(found)


def chain_head(debate: Debate, turns: Sequence[Turn], t: Translate | None = None) -> str:
    """The head of the debate's chain (the genesis when no turn is stored), as hex, the one
    its pages, export and closing message show. `t`: the strings the debate is run in
    (`Strings.of(debate)`; a reply's structured fields are hashed as shown, in its language);
    without it, the debate's own language, else Korean (the default LANGUAGE): pass `t` where
    the process may run in another LANGUAGE and the debate has none of its own."""
    chained = links(debate, turns, t)
    return chained[-1].link if chained else genesis(debate.id)


def turn_marker(link: Link) -> str:
    """The hidden line that opens a turn's section."""
    seat = _seat_out(link.seat)
    return (
        f"{MARKER_PREFIX}chain {_VERSION} turn={link.number} seat={seat} "
        f"raw={link.raw_sha} shown={link.shown_sha} -->"
    )


def turn_marker_of(turn: Turn, t: Translate) -> str:
    """The marker of one turn (its link is not in it: the head's line lists the links)."""
    return turn_marker(
        Link(turn.number, turn.seat, turn.sha256, shown_sha(shown_text(turn, t)), "")
    )


def end_marker() -> str:
    """The hidden line after the export's last turn."""
    return f"{MARKER_PREFIX}{_END}-->"


def head_marker(debate_id: int, chained: Sequence[Link]) -> str:
    """The hidden line with the head and every link, for `verify` to name a changed turn."""
    head = chained[-1].link if chained else genesis(debate_id)
    listed = ",".join(f"{c.number}:{_seat_out(c.seat)}:{c.link}" for c in chained)
    return f"{MARKER_PREFIX}chain {_VERSION} head debate={debate_id} head={head} links={listed} -->"


def closing_page(debate: Debate, page: str) -> bool:
    """Whether `page` is a format's own page that records the outcome (`record_page`: its
    Conclusion, written after the last turn, or its closing page, written as the debate
    ends): it carries the head."""
    ended = debate.ending.outcome is not None or page == WikiPage.CONCLUSION.value
    return ended and page == format_named(debate.setup.format).record_page(debate)


def head_block(debate: Debate, turns: Sequence[Turn], t: Translate) -> str:
    """The closing lines of a record: the head, visible, then its hidden line."""
    chained = links(debate, turns, t)
    head = chained[-1].link if chained else genesis(debate.id)
    return f"{t('record.head', scheme=SCHEME, head=head)}\n\n{head_marker(debate.id, chained)}\n"


class Problem(StrEnum):
    """What `verify` found."""

    INTACT = "intact"
    REPLY = "reply"  # a turn's reply differs from what its marker hashed
    MARKER = "marker"  # a turn's marker differs from its link
    MISSING = "missing"  # a chained turn is not in the record
    ADDED = "added"  # a turn not in the chain
    ORDER = "order"  # a turn out of its place
    HEAD = "head"  # the head line differs from the last link (or from the one expected)


class Unreadable(ValueError):
    """The text holds no chain `verify` can read (none at all, or an unknown scheme)."""


@dataclass(frozen=True)
class Entry:
    """A turn as a record shows it: its marker's fields and its reply."""

    number: int
    seat: str
    raw_sha: str
    shown_sha: str
    reply: str


@dataclass(frozen=True)
class Listed:
    """A link the head's line lists."""

    number: int
    seat: str
    link: str


@dataclass(frozen=True)
class Record:
    """A debate's turns and chain head, as read from a file or its pages."""

    debate_id: int
    head: str
    listed: tuple[Listed, ...]
    entries: tuple[Entry, ...]  # in the order the record shows them


@dataclass(frozen=True)
class Verdict:
    """Whether the record is intact and, if not, the first turn that changed."""

    problem: Problem
    number: int | None = None
    seat: str = ""

    @property
    def intact(self) -> bool:
        """True when every turn and the head are as chained."""
        return self.problem is Problem.INTACT


def read_record(texts: Sequence[str]) -> Record:
    """The turns and head in `texts`: one export file, or the Round-Log's parts in order
    then the closing page. A long turn the Round-Log cut into pieces is joined again."""
    head: re.Match[str] | None = None
    entries: list[Entry] = []
    current: tuple[re.Match[str], list[str]] | None = None
    for text in texts:
        found = list(_ANY_MARKER.finditer(text))
        for index, marker in enumerate(found):
            end = found[index + 1].start() if index + 1 < len(found) else len(text)
            after = text[marker.end() : end]
            what = marker.group("what")
            version = _OTHER_VERSION.match(what)
            if version is not None and version.group("version") != _VERSION:
                raise Unreadable(f"chain {version.group('version')}")
            piece = _PIECE.match(what)
            if current is not None and piece and int(piece.group("number")) == _number(current):
                current[1].append(after)
                continue
            if (what.startswith("entry ") and after.strip() == "") or what == _NEXT_PART:
                continue  # the entry line above a turn's marker; a full part's end and link
            if current is not None:
                entries.append(_entry(*current))
                current = None
            if (turn := _TURN.match(what)) is not None:
                current = (turn, [after])
            elif (closing := _HEAD.match(what)) is not None:
                head = closing
    if current is not None:
        entries.append(_entry(*current))
    if head is None:
        raise Unreadable("no head")
    return Record(int(head.group("debate")), head.group("head"), _listed(head), tuple(entries))


def _number(current: tuple[re.Match[str], list[str]]) -> int:
    return int(current[0].group("number"))


_LISTED = re.compile(r"(?P<number>[0-9]+):(?P<seat>[^:,]+):(?P<link>[0-9a-f]{64})")


def _listed(head: re.Match[str]) -> tuple[Listed, ...]:
    """The links the head's line lists; a line someone mangled is no chain to check."""
    listed = []
    for item in filter(None, head.group("links").split(",")):
        found = _LISTED.fullmatch(item)
        if found is None:
            raise Unreadable("no head")
        listed.append(Listed(int(found["number"]), _seat_in(found["seat"]), found["link"]))
    return tuple(listed)


def _entry(turn: re.Match[str], pieces: list[str]) -> Entry:
    """A turn's marker and its reply: the lines after its heading and meta line."""
    whole = _joined(pieces)
    lines = whole.strip("\n").split("\n")[1:]  # the turn's `## ` heading
    while lines and not lines[0].strip():
        lines.pop(0)
    reply = "\n".join(lines[1:])  # the meta line (time, model, link) goes
    return Entry(
        int(turn.group("number")),
        _seat_in(turn.group("seat")),
        turn.group("raw"),
        turn.group("shown"),
        reply,
    )


def _joined(pieces: list[str]) -> str:
    """The pieces of a cut section as one text: where a cut closed a code fence and the next
    piece reopened it (tools.wiki.round_log), both added lines go."""
    text = pieces[0].rstrip()
    for piece in pieces[1:]:
        rest = piece.lstrip("\n")
        lines = text.split("\n")
        fence: Fence | None = None
        for line in lines[:-1]:
            fence = step(fence, line)
        closing = fence is not None and lines[-1] == fence.indent + fence.marker
        if fence is not None and closing and rest.startswith(fence.line + "\n"):
            text = "\n".join(lines[:-1])
            rest = rest[len(fence.line) + 1 :]
        text = text + "\n" + rest.rstrip()
    return text


def verify(record: Record, expected_head: str = "", in_order: bool = True) -> Verdict:
    """The first turn that is not as chained, else INTACT. `in_order`: the record shows its
    turns by number (the export file; the Round-Log shows a late reply where it came)."""
    by_number: dict[int, Entry] = {}
    for index, entry in enumerate(record.entries):
        earlier = record.entries[index - 1].number if index else 0
        if entry.number in by_number or (in_order and entry.number < earlier):
            return Verdict(Problem.ORDER, entry.number, entry.seat)
        by_number[entry.number] = entry
    previous = genesis(record.debate_id)
    for listed in record.listed:
        if listed.number not in by_number:
            return Verdict(Problem.MISSING, listed.number, listed.seat)
        entry = by_number.pop(listed.number)
        if shown_sha(entry.reply) != entry.shown_sha:
            return Verdict(Problem.REPLY, entry.number, entry.seat)
        link = next_link(previous, entry.seat, entry.number, entry.raw_sha, entry.shown_sha)
        if link != listed.link or entry.seat != listed.seat:
            return Verdict(Problem.MARKER, entry.number, entry.seat)
        previous = link
    if by_number:
        first = min(by_number.values(), key=lambda entry: entry.number)
        return Verdict(Problem.ADDED, first.number, first.seat)
    if previous != record.head or (expected_head and expected_head.lower() != previous):
        return Verdict(Problem.HEAD)
    return Verdict(Problem.INTACT)
