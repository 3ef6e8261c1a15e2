"""How a format writes the words people read: a locale key as `⟦area.key⟧`, which the wiki and
the room fill in the reader's language (tools.wiki.pages.fill_keys). Text from outside the
format (a debater's reply, the people's words, the topic, the moderator's output) is embedded
through `verbatim`: the filling gives it back exactly as written, its own `⟦area.key⟧` too."""

from __future__ import annotations

import re

OPEN = "⟦"
# One left-to-right pass reads an escaped bracket (`⟦⟦`, a literal `⟦`) or a key: an escaped
# text is all pairs, so no key can start inside it.
KEY_OR_ESCAPE = re.compile(r"⟦⟦|⟦([a-z_]+\.[a-z_.]+)⟧")


def verbatim(text: str) -> str:
    """External text to embed in a keyed page or block: every `⟦` doubled."""
    return text.replace(OPEN, OPEN + OPEN)
