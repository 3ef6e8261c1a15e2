"""What the approvers' commands say, for Discord's `/debate` and the console's typed commands."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Protocol

from handlers.core.i18n import Strings
from handlers.core.kinds import Phase
from handlers.core.model import Debate, Turn
from handlers.core.server_config import ServerConfig
from handlers.core.shorten import shorten

MESSAGE_LIMIT = 2000  # Discord's, for a private reply: a page of the list fits in one


class AdminReads(Protocol):
    """What the approvers' commands read of the debates: the store's read side for them."""

    async def load(self, debate_id: int) -> Debate:
        """The debate's current state."""

    async def load_in(self, debate_id: int, guild_id: int) -> Debate:
        """The debate's current state if it belongs to server `guild_id`, else not found."""

    async def open_ids(self, guild_id: int | None = None) -> list[int]:
        """Ids of the debates not yet ended, oldest first (of one server, or of all)."""

    async def claim_unrecorded(self, guild_id: int, channel_ids: Iterable[int]) -> int:
        """Give the debates with no server recorded in `channel_ids` to that server."""

    async def last_turns(self, debate_id: int, count: int) -> tuple[Turn, ...]:
        """The latest `count` turns, oldest first."""


async def open_debates(store: AdminReads, guild_id: int | None = None) -> list[Debate]:
    """Every debate not yet ended (a card waiting included), oldest first: of one server, or
    of all (None: the console, whose one person owns every debate)."""
    return [await store.load(debate_id) for debate_id in await store.open_ids(guild_id)]


def debate_lines(
    debates: list[Debate],
    strings: Strings,
    status: Callable[[Debate], str],
    links: list[str],
    *,
    page: int = 1,
    command: Callable[[int], str],
) -> str:
    """Page `page` (from 1) of the list, one line per debate (`#3 Redis or LRU · round 1/6 ...
    · <#thread>`): as many whole lines as fit in one message, then how many more there are
    and the command that shows the next page (`command(n)`)."""
    if not debates:
        return strings("admin.none_open")
    lines = [
        debate_line(d, strings, status, where) for d, where in zip(debates, links, strict=True)
    ]
    # The longest the closing line can be here: the pages are the same whichever is asked.
    room = MESSAGE_LIMIT - 1 - len(_more(strings, len(lines), command(len(lines))))
    pages = _pages(lines, room)
    if not 1 <= page <= len(pages):
        return strings("admin.no_page", page=page, pages=len(pages))
    shown = pages[page - 1]
    after = sum(len(later) for later in pages[page:])
    if not after:
        return "\n".join(shown)
    return "\n".join([*shown, _more(strings, after, command(page + 1))])


def _more(strings: Strings, count: int, command: str) -> str:
    return strings("admin.more", count=count, command=command)


def _pages(lines: list[str], room: int) -> list[list[str]]:
    """The lines in pages of at most `room` characters, whole lines each (a line longer than
    a page alone is shortened, saying how much)."""
    pages: list[list[str]] = [[]]
    used = -1  # the first line of a page has no line break before it
    for line in (shorten(whole, room) for whole in lines):
        if pages[-1] and used + 1 + len(line) > room:
            pages.append([])
            used = -1
        pages[-1].append(line)
        used += 1 + len(line)
    return pages


def debate_line(
    debate: Debate, strings: Strings, status: Callable[[Debate], str], link: str = ""
) -> str:
    """`#3 Redis or LRU · round 1/6 · ... · <#thread>` (the console has no link); a card
    still waiting has no round yet."""
    said = strings("front.card_proposed") if debate.phase is Phase.PROPOSED else status(debate)
    line = strings("admin.line", id=debate.id, topic=debate.proposal.topic, status=said)
    return f"{line} · {link}" if link else line


def config_text(config: ServerConfig, strings: Strings, key: str, scope: str) -> str:
    """`Settings in this server: language: en · rounds: 4` (or the global defaults)."""
    chosen = [(f.name, getattr(config, f.name)) for f in fields(config) if getattr(config, f.name)]
    values = " · ".join(f"{name}: {value}" for name, value in chosen)
    return strings(key, scope=scope, values=values or strings("admin.config_defaults"))
