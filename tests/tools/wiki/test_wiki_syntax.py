"""A format page in its wiki's own syntax: a GitHub alert is a Wiki.js callout (a blockquote
followed by `{.is-warning}`, as Wiki.js 2.5's editor writes it) and stays an alert in the local
Markdown folder; a link to one of the debate's pages is a root path on Wiki.js (which reads a
relative link as below the page itself) and the file beside the page locally. Code fences
are kept as written."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from urllib.parse import quote

from handlers.core.model import AG, CLAUDE
from tests.effects import paged
from tests.tools.wiki.support import WAIT, OutboxFactory, Site, debate
from tools.wiki.asset_links import wikijs_callouts

# The ledger written and confirmed by both sides (two-party): its page is linked.
LEDGER = (("ledger", '{"agreed": ["LRU"]}'), ("ledger-unconfirmed", "[]"))
BASE = "debates/7-캐시-계층-선택-redis-vs-in-process-lru"
PAGE = """# Front

> [!WARNING]
> Not ratified.

See [turn 1](turns/01-ag), [the ledger](conclusion) and [elsewhere](https://example.org/x).

````text
> [!NOTE]
> a debater's raw reply, quoted as written
````

> [!tip] Short and sweet
"""


async def test_callouts_and_page_links_are_in_the_wiki_s_own_syntax(
    site: Site, make_outbox: OutboxFactory
) -> None:
    outbox = make_outbox(site.backend())
    ledger = replace(
        debate(),
        setup=replace(debate().setup, format="ledger"),
        floor=replace(debate().floor, log=((1, AG), (2, CLAUDE))),
        moderation=replace(debate().moderation, outputs=LEDGER),
    )
    await outbox.write(ledger, *paged("front-page", "Front", PAGE))
    await asyncio.wait_for(outbox.drained(ledger.id), WAIT)
    page = site.page(f"{BASE}/front-page")
    assert page is not None
    raw = "````text\n> [!NOTE]\n> a debater's raw reply, quoted as written\n````"
    assert raw in page.content and "(https://example.org/x)" in page.content
    if site.name == "wikijs":
        assert "> Not ratified.\n{.is-warning}\n" in page.content
        assert "> Short and sweet\n{.is-success}" in page.content
        assert "[!WARNING]" not in page.content and "[!tip]" not in page.content
        assert f"[turn 1](/{quote(BASE)}/turns/01-ag)" in page.content
        assert f"[the ledger](/{quote(BASE)}/conclusion)" in page.content
    else:
        assert "> [!WARNING]\n> Not ratified." in page.content and "{.is-" not in page.content
        assert "[turn 1](turns/01-ag.md)" in page.content
        assert "[the ledger](conclusion.md)" in page.content


def test_every_github_alert_has_its_wiki_js_callout() -> None:
    kinds = {
        "NOTE": "info",
        "IMPORTANT": "info",
        "TIP": "success",
        "WARNING": "warning",
        "CAUTION": "danger",
    }
    for kind, style in kinds.items():
        assert wikijs_callouts(f"> [!{kind}]\n> a\n> b\n\nafter") == (
            f"> a\n> b\n{{.is-{style}}}\n\nafter"
        )
    assert wikijs_callouts("> [!NOTE]\n> last line") == "> last line\n{.is-info}"
    assert wikijs_callouts("> plain quote\n\n```\n> [!NOTE]\n```") == (
        "> plain quote\n\n```\n> [!NOTE]\n```"
    )
