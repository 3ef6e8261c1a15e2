"""The Round-Log in numbered parts, each below the wiki's body limit and linking the next.

No I/O of its own (`target_part` reads and links through the backend it is given).
Part 1 is `.../round-log`, part n is `.../round-log-n`. A full part ends with a hidden
marker and a link to the next one, so the chain can be walked (and a crash between the link
and the next part's first write resumed) from the pages alone. A section longer than a part
is cut into pieces at line ends, each piece closing and reopening any code fence it cuts
through, so every piece reads on its own and together they hold the whole section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from handlers.core.fences import Fence, step
from tools.wiki.backends import StoredPage, WikiBackend
from tools.wiki.pages import Translate, entry_marker

# Wiki.js takes 5 MB per request, and aiohttp sends JSON with ASCII escapes: a character can
# cost 12 bytes (an emoji as two \uXXXX escapes). 380,000 characters stay below in any script.
PART_LIMIT_CHARS = 380_000
NEXT_PART = "<!-- debate-room:next-part -->"
_LINK_ROOM = 512  # the link that closes a full part, and the next part's first lines
_PART = re.compile(r"^(?P<base>.*/round-log)(?:-(?P<number>[0-9]+))?$")


def part_path(base: str, number: int) -> str:
    """The path of part `number` of the Round-Log at `base`."""
    return base if number == 1 else f"{base}-{number}"


def is_round_log(path: str) -> bool:
    """Whether `path` is a part of a Round-Log."""
    return _PART.match(path) is not None


def part_title(title: str, number: int, t: Translate) -> str:
    """Part 1 keeps the page's title; later parts add their number."""
    return title if number == 1 else f"{title} ({t('wiki.round_log.part', part=number)})"


def next_link(url: str, number: int, t: Translate) -> str:
    """The end of a full part: the marker, then where the Round-Log goes on."""
    return f"\n\n{NEXT_PART}\n{t('wiki.round_log.continued', part=number, url=url)}\n"


def previous_link(url: str, number: int, t: Translate) -> str:
    """The first line of part `number`: where the Round-Log began."""
    return t("wiki.round_log.continues", part=number - 1, url=url) + "\n\n"


def pieces(section: str, key: str, limit: int) -> list[tuple[str, str]]:
    """(dedup key, content) of each piece of a section, every piece at most `limit` long."""
    if len(section) <= limit:
        return [(key, section)]
    found: list[tuple[str, str]] = []
    for index, body in enumerate(_cut(section, limit - 128)):
        piece_key = key if index == 0 else f"{key}:{index}"
        # The section's own marker opens its first piece; each later piece gets its own.
        found.append((piece_key, body if index == 0 else f"{entry_marker(piece_key)}\n{body}"))
    return found


def _cut(text: str, limit: int) -> list[str]:
    """Line-end cuts (or mid-line for a longer line), code fences closed and reopened."""
    out: list[str] = []
    fence: Fence | None = None
    current, reopen = "", ""
    for line in _lines(text, limit // 2):
        if current and len(current) + len(line) + 20 > limit:
            out.append(current + (f"\n{fence.indent}{fence.marker}\n" if fence else ""))
            current, reopen = "", (fence.line + "\n" if fence else "")
        if not current:
            current = reopen
        current += line
        if line.endswith("\n"):
            fence = step(fence, line[:-1])
    if current:
        out.append(current)
    return out


def _lines(text: str, longest: int) -> list[str]:
    """The lines of `text` with their newlines; a line longer than `longest` in pieces."""
    lines: list[str] = []
    for line in text.splitlines(keepends=True):
        lines.extend(line[start : start + longest] for start in range(0, len(line), longest))
    return lines


@dataclass(frozen=True)
class Target:
    """Where a Round-Log entry is written: the part's path and title, and what to append."""

    path: str
    title: str
    content: str
    page: StoredPage | None = None  # the part as just read (None: no such part yet)


async def target_part(
    backend: WikiBackend, base: str, title: str, key: str, content: str, limit: int, t: Translate
) -> Target:
    """The part holding the entry already, else the last with room (a full one linked first)."""
    number = 1
    while (page := await backend.read(part_path(base, number))) is not None:
        path, part = part_path(base, number), part_title(title, number, t)
        if entry_marker(key) in page.content:
            return Target(path, part, content, page)
        if NEXT_PART not in page.content:
            if len(page.content) + len(content) + _LINK_ROOM <= limit:
                return Target(path, part, content, page)
            link = next_link(backend.url(part_path(base, number + 1)), number + 1, t)
            await backend.write(path, part, page.content.rstrip() + link, page)
        number += 1
    if number > 1:
        content = previous_link(backend.url(part_path(base, number - 1)), number, t) + content
    return Target(part_path(base, number), part_title(title, number, t), content)
