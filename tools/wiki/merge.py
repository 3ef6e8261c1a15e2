"""How a queued write merges with the page as the wiki holds it now: never twice, never over a
person's edit.

Pure functions: no I/O. The page hash ignores line-ending and trailing-whitespace differences.
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass

from tools.wiki.pages import Translate, entry_marker

BOT_SECTION = "<!-- debate-room:bot-section -->"


class Mode(enum.StrEnum):
    """How an outbox entry changes its page."""

    REPLACE = "replace"  # the entry is the page's whole (bot-owned) content
    APPEND = "append"  # the entry is a section added at the end, once


@dataclass(frozen=True)
class Plan:
    """What to send for one outbox entry, given the page as the wiki holds it now."""

    content: str | None  # None: the page already holds this entry, send nothing
    human_edit: bool = False  # a person changed the page since the bot's last write


def content_hash(content: str) -> str:
    """A hash that ignores line-ending and trailing-whitespace differences."""
    return hashlib.sha256(_norm(content).encode("utf-8")).hexdigest()


def plan_write(
    mode: Mode,
    entry: str,
    dedup_key: str,
    current: str | None,
    known_hash: str | None,
    t: Translate,
) -> Plan:
    """Merge an entry into the current page without ever dropping a person's edit."""
    if mode is Mode.APPEND:
        if current is None:
            return Plan(f"{t('wiki.round_log.intro')}\n\n{entry}")  # a new Round-Log
        if entry_marker(dedup_key) in current:
            return Plan(None)
        return Plan(f"{current.rstrip()}\n\n{entry}", _edited(current, known_hash))
    if current is None:
        return Plan(entry)
    intended = _compose(_bot_prefix(current), entry, t)
    if _norm(current) == _norm(intended):
        return Plan(None)
    if not _edited(current, known_hash):
        return Plan(intended)
    return Plan(_compose(current, entry, t), human_edit=True)


def _edited(current: str, known_hash: str | None) -> bool:
    # A page the bot has no record of writing counts as a person's: never overwrite it blindly.
    return known_hash is None or content_hash(current) != known_hash


def _bot_prefix(current: str) -> str:
    """The part of a page above the bot's own section (empty when the bot owns it all)."""
    head, found, _ = current.rpartition(BOT_SECTION)
    return head if found else ""


def _compose(prefix: str, entry: str, t: Translate) -> str:
    if not prefix.strip():
        return entry
    heading = t("wiki.human_edit.heading")
    note = t("wiki.human_edit.note")
    return f"{prefix.rstrip()}\n\n{BOT_SECTION}\n## {heading}\n\n_{note}_\n\n{entry}"


def _norm(content: str) -> str:
    return content.replace("\r\n", "\n").rstrip()
