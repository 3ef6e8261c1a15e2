"""`debate-room worker`: runs debates without a gateway connection (issue 20).

The worker logs in over Discord's REST API only (no gateway session): it posts turns, edits
status lines, creates threads, calls the debaters and writes the wiki for the debates whose
lease it holds. Clicks and messages reach the `run` process (the gateway), which stores them in
the inbox; the worker applies them. It needs the shared database (DATABASE_URL, PostgreSQL).
"""

from __future__ import annotations

from bot.discord.app import run_command, serve_worker
from bot.settings import Settings


def run_worker(settings: Settings) -> int:
    """The `debate-room worker` command."""
    return run_command(settings, serve_worker)
