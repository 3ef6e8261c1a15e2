"""A page's references to the pages and files beside it (`![diagram](concepts.svg)`,
`[turn 1](turns/01-ag)`), in the form its wiki serves them, and its callouts in the wiki's own
syntax (Wiki.js 2.5 renders no GitHub alert: a blockquote followed by `{.is-info}` is its
callout, as its editor's toolbar writes it, client/components/editor/editor-markdown.vue)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from handlers.core.fences import Fence, step
from tools.wiki.backends import ASSET_SUFFIXES

# `](target)` or `](target "title")`: a relative path (no scheme, query or fragment).
_LINK = re.compile(r'(\]\()([^()\s\\:?#<>"]+)((?:\s+"[^"]*")?\))')
_ALERT = re.compile(r">[ \t]?\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(.*)", re.IGNORECASE)
WIKIJS_CLASS = {
    "NOTE": "is-info",
    "IMPORTANT": "is-info",
    "TIP": "is-success",
    "WARNING": "is-warning",
    "CAUTION": "is-danger",
}


def link_assets(
    markdown: str, page_path: str, pages: Mapping[str, str], link: Callable[[str, str], str]
) -> str:
    """The Markdown with each link naming one of the debate's `pages` (name -> path), or a
    file beside the page, replaced by `link(page_path, its path)`."""
    folder = page_path.rpartition("/")[0]

    def linked(match: re.Match[str]) -> str:
        target = match[2]
        path = pages.get(target)
        if path is None and "/" not in target and target.endswith(ASSET_SUFFIXES):
            path = f"{folder}/{target}" if folder else target
        return match[0] if path is None else f"{match[1]}{link(page_path, path)}{match[3]}"

    return _LINK.sub(linked, markdown)


def wikijs_callouts(markdown: str) -> str:
    """GitHub alerts (`> [!NOTE]` opening a blockquote) as Wiki.js callouts; code fences kept."""
    out: list[str] = []
    fence: Fence | None = None
    style = ""
    for line in [*markdown.split("\n"), ""]:  # the blank line ends a last callout
        if style and not line.startswith(">"):
            out.append(f"{{.{style}}}")
            style = ""
        alert = _ALERT.fullmatch(line) if fence is None else None
        fence = step(fence, line)
        if alert is None:
            out.append(line)
            continue
        style = WIKIJS_CLASS[alert[1].upper()]
        if alert[2].strip():
            out.append(f"> {alert[2]}")
    return "\n".join(out[:-1])
