"""What a line typed at the console's card picks: a format (number or name), a budget, or
an answer to the format's setup questions (`key=value`)."""

from __future__ import annotations

import re

from bot.formatting import format_label, offers_a_choice, option_label
from handlers.core.formats import card_options
from handlers.core.formats.base import CardOption
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.model import Debate


def format_in(text: str, offered: tuple[str, ...]) -> str:
    """The format a typed number (as the card lists them, from 1) or name picks, if any: its
    own name (`ledger`) or the name the card shows in any of the bot's languages ("Claim
    ledger", "주장 원장")."""
    key = " ".join(text.split()).casefold()
    if len(offered) < 2:
        return ""
    if key.isdigit() and 1 <= int(key) <= len(offered):
        return offered[int(key) - 1]
    return next((name for name in offered if key in _names_of(name)), "")


def _names_of(name: str) -> set[str]:
    """Every way a person may type the format `name`: itself and its shown names."""
    shown = (format_label(Strings(language), name) for language in LANGUAGES)
    return {name.casefold(), *(" ".join(label.split()).casefold() for label in shown)}


_BUDGET = re.compile(r"(?:r|rounds?|라운드)\s*(\d{1,3})", re.IGNORECASE)


def budget_in(text: str) -> int | None:
    """The round budget a card line such as `r 4` or `라운드 4` sets, if it is one."""
    found = _BUDGET.fullmatch(text.strip())
    return int(found.group(1)) if found else None


def option_in(
    text: str, asked: tuple[CardOption, ...], seats: tuple[str, ...] = ()
) -> tuple[str, str] | None:
    """The setup answer a card line gives (`ledger.stance=neutral` or `stance=neutral`; of
    members, their ids: `squad=ag,claude`, spaces or commas between them)."""
    key, sep, value = text.strip().partition("=")
    key, value = key.strip().casefold(), value.strip()
    for option in asked if sep else ():
        picked = value if option.is_text else value.casefold()
        if option.members:
            picked = ",".join(picked.replace(",", " ").split())
        if key in (option.key, option.key.rsplit(".", 1)[-1]) and option.valid(picked, seats):
            return option.key, picked
    return None


def option_lines(debate: Debate, strings: Strings) -> list[str]:
    """The card's lines for the format's setup questions: the current answer and the keys."""
    lines = []
    for option in card_options(debate.setup.format):
        if not offers_a_choice(debate, option):
            continue
        short = option.key.rsplit(".", 1)[-1]
        if option.is_text:  # free text: how much was added, and how to add it
            count = sum(len(a.text) for a in debate.setup.added if a.key == option.key)
            added = strings("front.form_added", count=count)
            current, keys = option_label(strings, option.key, added), f"{short}=..."
        elif option.members:  # the members now, and the ids to type
            sitting = option.current(debate).split(",")
            names = ", ".join(m.name for m in debate.setup.roster if m.id in sitting)
            current = option_label(strings, option.key, names)
            keys = f"{short}={','.join(debate.ids[: option.members])}"
        else:
            answer = option.current(debate)
            current = option_label(strings, option.key, answer)
            keys = " · ".join(f"{short}={c}" for c in option.choices)
        lines.append(strings("console.card_option", option=current, keys=keys))
    return lines
