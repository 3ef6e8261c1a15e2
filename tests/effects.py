"""Effects with what the runner loads for them, as a test hands them to a port directly."""

from __future__ import annotations

from handlers.core.effects import AppendRoundLog, PostConclusion, PostTurn, WritePage
from handlers.core.model import Conclusion, Debate, Turn
from handlers.effects_runner import page_links
from handlers.ports import Loaded, Wiki


def posted(turn: Turn) -> tuple[PostTurn, Loaded]:
    """Post this stored turn (Room.show)."""
    return PostTurn(turn.number), Loaded(turn=turn)


def concluded(debate: Debate, conclusion: Conclusion, wiki: Wiki) -> tuple[PostConclusion, Loaded]:
    """Post the Conclusion with links to the pages the debate wrote, as `wiki` serves them."""
    return PostConclusion(conclusion), Loaded(links=page_links(wiki, debate))


def logged(turn: Turn, message_url: str) -> tuple[AppendRoundLog, Loaded]:
    """Queue this stored turn's Round-Log section, linked to its message (Wiki.write)."""
    return AppendRoundLog(turn.number), Loaded(turn=turn, message_url=message_url)


def paged(page: str, title: str, markdown: str) -> tuple[WritePage, Loaded]:
    """Queue this rendered format page (Wiki.write)."""
    return WritePage(page), Loaded(title=title, markdown=markdown)
