"""What a person is told when their command or click fails: the one map from a known error to
its words (a debate gone, the store out of reach), and a short apology, with the traceback
logged as an error, for anything else. Each front's one error handler says it privately: the
controls' (`DiscordFront.on_error`) and the slash commands' (`AdminCommands.on_error`, the
command tree's)."""

from __future__ import annotations

import logging
from typing import Literal

from handlers.core.i18n import Strings
from handlers.store_ports import StoreUnavailable
from tools.store.debates import DebateNotFound

log = logging.getLogger(__name__)

Front = Literal["click", "command"]


def failure_text(error: Exception, strings: Strings, front: Front) -> str:
    """The private reply to a failed click or command; logs what the maintainers should see."""
    if isinstance(error, DebateNotFound):
        if front == "command":  # a number typed: it names the debate it did not find
            return strings("admin.no_debate", id=error.args[0] if error.args else "?")
        return strings("front.not_now")  # a button of a debate that is gone
    if isinstance(error, StoreUnavailable):
        log.warning("a %s could not be handled: %s", front, error)
        return strings("front.store_unavailable")
    log.error("a %s failed", front, exc_info=error)
    return strings("front.failed")
