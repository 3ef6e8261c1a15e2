"""A wiki page's name as people read it, in the debate's language: the format's own word for
its page, else the engine's (`front.page_<page>`); a page without one keeps its path."""

from __future__ import annotations

from handlers.core.i18n import Strings


def page_word(t: Strings, own: str, page: str) -> str:
    """The name of `page` (a path such as `round-log`) in format `own`'s words or the engine's,
    or "" when neither has one."""
    key = page.replace("-", "_").replace(".", "_")
    for found in (f"{own}.page_{page}", f"{own}.page_{key}", f"front.page_{key}"):
        if t.has(found):
            return t(found)
    return ""
