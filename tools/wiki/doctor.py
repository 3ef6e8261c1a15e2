"""The wiki adapter's front door: pick the backend from the settings, and check it.

The parts live in their own modules: `wiki_js` (Wiki.js GraphQL), `wiki_backends` (the local
Markdown folder and the backend protocol), `wiki_outbox` (the engine's `Wiki` port),
`wiki_pages` (page Markdown) and `slug` (paths).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tools.checks import Check, Status
from tools.wiki.backends import LocalWiki, StoredPage, WikiBackend, WikiError
from tools.wiki.outbox import WikiOutbox
from tools.wiki.slug import SlugError, check_root
from tools.wiki.wikijs import WikiJsWiki

if TYPE_CHECKING:
    from bot.settings import Settings

__all__ = [
    "LocalWiki",
    "StoredPage",
    "WikiBackend",
    "WikiError",
    "WikiJsWiki",
    "WikiOutbox",
    "build_wiki_backend",
    "check_wiki",
]


def build_wiki_backend(settings: Settings) -> WikiBackend:
    """Wiki.js when WIKIJS_URL is set, else the local Markdown folder."""
    if settings.WIKIJS_URL:
        key = settings.WIKIJS_API_KEY.get_secret_value() if settings.WIKIJS_API_KEY else None
        return WikiJsWiki(settings.WIKIJS_URL, key)
    return LocalWiki(settings.LOCAL_WIKI_DIR)


async def check_wiki(settings: Settings) -> Check:
    """`debate-room doctor` and start-up: the wiki answers and the key has the rights it needs."""

    try:
        check_root(settings.WIKI_ROOT)
    except SlugError as exc:
        return Check("wiki", Status.FAILING, str(exc))
    if settings.WIKIJS_URL and settings.WIKIJS_API_KEY is None:
        return Check("wiki", Status.FAILING, "WIKIJS_URL is set but WIKIJS_API_KEY is not")
    backend = build_wiki_backend(settings)
    try:
        detail = await backend.check()
    except WikiError as exc:
        return Check("wiki", Status.FAILING, exc.message)
    finally:
        await backend.aclose()
    return Check("wiki", Status.OK, detail)
