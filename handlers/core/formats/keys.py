"""How a format writes the words people read: a locale key as `⟦area.key⟧`, which the wiki and
the room fill in the reader's language (`fill_keys`). Text from outside the format (a
debater's reply, the people's words, the topic, the moderator's output) is embedded
through `verbatim`: the filling gives it back exactly as written, its own `⟦area.key⟧` too."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from handlers.core.fences import longest_backtick_run
from handlers.core.i18n import LocaleError

_OPEN = "⟦"
# One left-to-right pass reads an escaped bracket (`⟦⟦`, a literal `⟦`) or a key: an escaped
# text is all pairs, so no key can start inside it.
_KEY_OR_ESCAPE = re.compile(r"⟦⟦|⟦([a-z_]+\.[a-z_.]+)⟧")


def task_named(format_name: str, task: str) -> str:
    """A moderator task (or a step) as people read it: `⟦task.<format>.<task>⟧`, whose words
    (`the advisor's review`) the room fills; never the internal id itself."""
    return f"⟦task.{format_name}.{task.replace('-', '_')}⟧"


def verbatim(text: str) -> str:
    """External text to embed in a keyed page or block: every `⟦` doubled."""
    return text.replace(_OPEN, _OPEN + _OPEN)


def fenced(text: str) -> str:
    """Text in a code fence longer than any backtick run inside it, so nothing closes it early."""
    fence = "`" * max(3, longest_backtick_run(text) + 1)
    return f"{fence}text\n{text}\n{fence}"


def fill_keys(
    text: str,
    t: Callable[..., str],
    links: Mapping[str, str] | None = None,
    link: Callable[[str, str], str] = lambda words, url: f"[{words}]({url})",
) -> str:
    """A format's page or block in the reader's language (see above); a `⟦...⟧` that names no
    string stays as it is. A key `links` maps to an address is its words as a `link` there
    (a page's name, `⟦boardroom.page_synthesis⟧`, linking the page)."""

    def filled(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return _OPEN
        try:
            words = t(match.group(1))
        except LocaleError:
            return match.group(0)
        url = (links or {}).get(match.group(1))
        return link(words, url) if url else words

    return _KEY_OR_ESCAPE.sub(filled, text)
