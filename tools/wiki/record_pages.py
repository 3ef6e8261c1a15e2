"""The pages `debate-room verify` reads for a debate: every part of its Round-Log, in order,
then the page that carries the chain head (the format's record page, else the Conclusion)."""

from __future__ import annotations

from handlers.core.formats import format_named
from handlers.core.model import Debate, WikiPage
from tools.wiki.backends import WikiBackend
from tools.wiki.round_log import part_path
from tools.wiki.slug import page_path, topic_slug


async def record_texts(backend: WikiBackend, root: str, debate: Debate) -> list[str]:
    """The Round-Log's parts and the closing page, as the wiki has them now (a page a person
    deleted is left out: `verify` then names what is missing)."""
    slug = topic_slug(debate.id, debate.proposal.topic, root, debate.setup.wiki_key)
    base = page_path(root, slug, WikiPage.ROUND_LOG.value)
    texts: list[str] = []
    number = 1
    while (part := await backend.read(part_path(base, number))) is not None:
        texts.append(part.content)
        number += 1
    closing = format_named(debate.setup.format).record_page(debate)
    for page in dict.fromkeys((closing, WikiPage.CONCLUSION.value)):
        found = await backend.read(page_path(root, slug, page))
        if found is not None:
            texts.append(found.content)
            break
    return texts
