"""What a line typed at the console's card picks: a format (number or name) or a budget."""

from __future__ import annotations

import re


def format_in(text: str, offered: tuple[str, ...]) -> str:
    """The format a typed number (1-based, as the card lists them) or name picks, if any;
    with one format offered there is nothing to pick."""
    key = text.strip().casefold()
    if len(offered) < 2:
        return ""
    if key.isdigit() and 1 <= int(key) <= len(offered):
        return offered[int(key) - 1]
    return next((name for name in offered if name.casefold() == key), "")


_BUDGET = re.compile(r"(?:r|rounds?|라운드)\s*(\d{1,3})", re.IGNORECASE)


def budget_in(text: str) -> int | None:
    """The round budget a card line such as `r 4` or `라운드 4` sets, if it is one."""
    found = _BUDGET.fullmatch(text.strip())
    return int(found.group(1)) if found else None
