"""The wiki outbox's event: what it has to tell the debate's thread."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# What the outbox reports, each a notice `wiki.<what>` in the locale files.
WikiNews = Literal["delayed", "unwritable", "caught_up", "human_edit_kept", "write_refused"]


@dataclass(frozen=True)
class WikiReported:
    """The outbox's news about the debate's pages, with the notice's parameters."""

    what: WikiNews
    params: tuple[tuple[str, str], ...] = ()
    kind: Literal["wiki_reported"] = "wiki_reported"
