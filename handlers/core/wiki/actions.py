"""Validate a debater's wiki_action: only the Working-Document, only replace or append."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from handlers.core.model import WikiAction, WikiPage
from handlers.core.shorten import shorten

MAX_ACTION_CHARS = 30_000
MAX_DOCUMENT_CHARS = 200_000
_PAGE_NAMES = {page.value: page for page in WikiPage}


class WriteMode(enum.StrEnum):
    """How a wiki_action changes the Working-Document."""

    REPLACE = "replace"
    APPEND = "append"


@dataclass(frozen=True)
class Refusal:
    """Why an action was refused: a locale key and its parameters."""

    key: str
    params: tuple[tuple[str, str], ...] = ()


def apply_action(document: str, action: WikiAction) -> str | Refusal:
    """The Working-Document after `action`, or why the action is refused."""
    page = _page_of(action.page)
    if page is not WikiPage.WORKING_DOCUMENT:
        name = page.value if page else action.page
        return Refusal("wiki.refused_page", (("page", shorten(name, 80)),))
    try:
        mode = WriteMode(action.mode.strip().lower())
    except ValueError:
        return Refusal("wiki.refused_mode", (("mode", shorten(action.mode, 40)),))
    if not action.content.strip():
        return Refusal("wiki.refused_empty")
    if len(action.content) > MAX_ACTION_CHARS:
        return Refusal("wiki.refused_too_large", (("limit", f"{MAX_ACTION_CHARS:,}"),))
    if mode is WriteMode.REPLACE:
        return action.content
    combined = f"{document.rstrip()}\n\n{action.content}" if document.strip() else action.content
    if len(combined) > MAX_DOCUMENT_CHARS:
        return Refusal("wiki.refused_too_large", (("limit", f"{MAX_DOCUMENT_CHARS:,}"),))
    return combined


def _page_of(name: str) -> WikiPage | None:
    key = name.strip().strip("/").rsplit("/", 1)[-1].lower().replace(" ", "-").replace("_", "-")
    return _PAGE_NAMES.get(key)
