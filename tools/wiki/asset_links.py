"""A page's references to the files beside it (`![diagram](concepts.svg)`), in the form its
wiki serves them: unchanged in the local folder, the asset's path on Wiki.js."""

from __future__ import annotations

import re
from collections.abc import Callable

from tools.wiki.backends import ASSET_SUFFIXES

_SUFFIXES = "|".join(re.escape(suffix) for suffix in ASSET_SUFFIXES)
# `](name.svg)` or `](name.svg "title")`: a bare name, so a file in the page's own folder.
_BESIDE = re.compile(rf'(\]\()([^()\s/\\:?#<>"]+(?:{_SUFFIXES}))((?:\s+"[^"]*")?\))')


def link_assets(markdown: str, page_path: str, link: Callable[[str, str], str]) -> str:
    """The Markdown with each link target naming a file beside the page replaced by
    `link(page_path, that file's path)`."""
    folder = page_path.rpartition("/")[0]

    def linked(match: re.Match[str]) -> str:
        asset = f"{folder}/{match[2]}" if folder else match[2]
        return f"{match[1]}{link(page_path, asset)}{match[3]}"

    return _BESIDE.sub(linked, markdown)
