"""The pinned status message's edits, coalesced: at most one edit per window per debate.

The engine asks for a status refresh two or three times per turn (reply stored, moderator
decided, next speaker), often within a second. A refresh opens a short window; every
refresh inside it folds into one edit at its end, showing the newest state. A debate's
final state is edited at once. Edits of one debate never overlap, and each sends the newest
state known when it starts, so the last edit always shows the last state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

from handlers.core.model import Debate
from handlers.leasing import LeaseLost
from handlers.store_ports import StoreUnavailable

log = logging.getLogger(__name__)

Edit = Callable[[Debate], Awaitable[None]]


class StatusEditor:
    """Latest-wins, windowed edits of each debate's status message."""

    def __init__(self, edit: Edit, window_s: float) -> None:
        self._edit = edit
        self._window_s = window_s
        self._latest: dict[int, Debate] = {}
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.edits = 0  # edits sent, for the benchmark

    async def update(self, debate: Debate) -> None:
        """Show `debate`'s state at the end of the window (the final state: now)."""
        self._latest[debate.id] = debate
        if debate.phase.is_terminal:
            self._cancel(debate.id)
            await self._send(debate.id)
        elif debate.id not in self._pending:
            task = asyncio.create_task(self._later(debate.id), name=f"status-{debate.id}")
            self._pending[debate.id] = task

    async def touch(self, debate: Debate) -> None:
        """Edit again with the newest state known (else `debate`): something beside it changed."""
        await self.update(self._latest.get(debate.id, debate))

    async def flush(self) -> None:
        """Send every scheduled edit now (before the client closes)."""
        for debate_id in list(self._pending):
            self._cancel(debate_id)
            with contextlib.suppress(discord.HTTPException, LeaseLost, StoreUnavailable):
                await self._send(debate_id)

    def _cancel(self, debate_id: int) -> None:
        task = self._pending.pop(debate_id, None)
        if task is not None:
            task.cancel()

    async def _send(self, debate_id: int) -> None:
        async with self._locks.setdefault(debate_id, asyncio.Lock()):
            debate = self._latest.get(debate_id)
            if debate is None:
                return  # the final state was sent already
            self.edits += 1
            await self._edit(debate)
            if debate.phase.is_terminal:
                self._latest.pop(debate_id, None)  # nothing more will change
                self._locks.pop(debate_id, None)

    async def _later(self, debate_id: int) -> None:
        await asyncio.sleep(self._window_s)
        # Out of `pending` before editing: a refresh arriving meanwhile opens a new window.
        self._pending.pop(debate_id, None)
        try:
            await self._send(debate_id)
        except LeaseLost:
            pass  # another process runs the debate now: it keeps the status
        except StoreUnavailable as exc:  # the lease cannot be confirmed: the next edit tries
            log.warning("debate %s: status not edited: %s", debate_id, exc)
        except Exception:  # a background job's boundary: the next edit shows the state
            log.warning("debate %s: status edit failed", debate_id, exc_info=True)
