"""`debate-room doctor`'s wiki line: the backend answers."""

from __future__ import annotations

from tools.checks import Check, Status
from tools.wiki.backends import WikiBackend, WikiError


async def check_wiki_backend(backend: WikiBackend) -> Check:
    """The wiki answers and the key has the rights it needs; the backend is closed after."""
    try:
        detail = await backend.check()
    except WikiError as exc:
        return Check("wiki", Status.FAILING, exc.message)
    finally:
        await backend.aclose()
    return Check("wiki", Status.OK, detail)
