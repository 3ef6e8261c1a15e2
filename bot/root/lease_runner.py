"""This process's share of the debates when several processes run them.

A loop claims debates nobody holds (up to WORKER_MAX_DEBATES), submits the inbox's events for
the debates held, in order, and gives ended debates up; a timer renews the leases. A lease
found lost (not renewed in time, or a fenced write refused) makes the engine let that debate
go at once: another process claims it and resumes from its last stored step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from handlers.core.model import Debate
from handlers.debate_handler import DebateHandler
from handlers.leasing import LeaseLost
from handlers.store_ports import StoreUnavailable
from tools.store.inbox import Command, Inbox
from tools.store.leases import Leases
from tools.wiki.outbox import WikiOutbox

log = logging.getLogger(__name__)

# A command whose step could not be stored is tried again at the next passes (a database
# hiccup loses no click); one that fails this often is a bad command, and is given up.
COMMAND_ATTEMPTS = 3


class LeaseRunner:
    """Claims, renews and lets go of debates; feeds their workers the inbox's commands."""

    def __init__(
        self,
        leases: Leases,
        handler: DebateHandler,
        wiki: WikiOutbox,
        inbox: Inbox,
        *,
        capacity: int,
        poll_s: float,
        forget: Callable[[int], None] = lambda _: None,
        claimed: Callable[[], None] = lambda: None,
        show_status: Callable[[Debate], Awaitable[None]] | None = None,
    ) -> None:
        self.leases = leases
        self._handler = handler
        self._wiki = wiki
        self._inbox = inbox
        self._capacity = capacity
        self._poll_s = poll_s
        self._forget = forget  # in-memory records of a debate another process changed
        self._claimed = claimed  # the timer driver: a debate claimed comes with its timers
        self._show_status = show_status  # the room's status line, edited to a debate's state
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._failures: dict[int, int] = {}  # inbox command -> failed attempts so far
        self._unreachable = False  # the database was out of reach at the last try

    def start(self) -> None:
        """Start the loop and the renewal timer."""
        self._tasks = [
            asyncio.create_task(self._loop(), name="lease-loop"),
            asyncio.create_task(self._renewer(), name="lease-renewer"),
        ]

    def wake(self) -> None:
        """Look for debates and commands now (a command or a proposal was stored)."""
        self._wake.set()

    async def aclose(self) -> None:
        """Stop claiming and renewing; the caller stops the engine, then calls `release_all`."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def release_all(self) -> None:
        """Give every lease up (a clean stop): other processes take the debates at once."""
        for debate_id in self.leases.held():
            with contextlib.suppress(Exception):  # the lease lapses by itself anyway
                await self.leases.release(debate_id)

    async def tick(self) -> None:
        """One pass: claim, apply the inbox, give up what ended (the timer driver fires the
        stored timers of the debates held)."""
        room = self._capacity - len(self.leases.held())
        claimed = await self.leases.claim(room, self._handler.now())
        if claimed:
            log.info("claimed debates %s", claimed)
        for debate_id in claimed:
            self._adopt(debate_id)
        await self._apply_inbox()
        await self._let_go_of_ended()

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.tick()
            except StoreUnavailable as exc:
                self._out_of_reach(exc)
            except Exception:  # a boundary: a database hiccup must not end the process's loop
                log.exception("lease loop: a pass failed; trying again")
            else:
                self._in_reach()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._poll_s)

    async def _renewer(self) -> None:
        while True:
            await asyncio.sleep(self.leases.timing.renew_s)
            await self.renew()

    async def renew(self) -> None:
        """Stop what may no longer act, renew the leases, let go of the lost ones."""
        stale = [d for d in self.leases.held() if not self.leases.holds(d)]
        for debate_id in stale:  # no renewal came back in time: stop its running effects now
            if not self._handler.is_idle(debate_id):
                log.warning("debate %s: lease not renewed in time; stopping", debate_id)
                await self._handler.let_go(debate_id)
        try:  # bounded: a hung database must not keep the next check from running
            lost = await asyncio.wait_for(self.leases.renew(), self.leases.timing.renew_s)
        except StoreUnavailable as exc:  # the local deadlines stop the debates in time
            self._out_of_reach(exc)
            return
        except Exception:  # a boundary: the local deadlines stop the debates in time
            log.exception("lease renewal failed")
            return
        self._in_reach()
        for debate_id in lost:
            log.warning("debate %s: lease lost; letting it go", debate_id)
            await self._handler.let_go(debate_id)
        for debate_id in stale:  # renewed after all: run it again
            if self.leases.holds(debate_id) and self._handler.is_idle(debate_id):
                self._adopt(debate_id)

    def _out_of_reach(self, exc: StoreUnavailable) -> None:
        """Say once (not at every pass) that the database is out of reach."""
        if not self._unreachable:
            self._unreachable = True
            log.warning("%s: leases are not renewed until it is back", exc)

    def _in_reach(self) -> None:
        if self._unreachable:
            self._unreachable = False
            log.info("the database is reachable again")

    def _adopt(self, debate_id: int) -> None:
        self._forget(debate_id)
        self._claimed()
        self._handler.wake(debate_id)
        self._wiki.resume(debate_id)

    async def _apply_inbox(self) -> None:
        held = [d for d in self.leases.held() if self.leases.holds(d)]
        for command in await self._inbox.pending(held):
            if self.leases.holds(command.debate_id):
                await self._apply(command)

    async def _apply(self, command: Command) -> None:
        """Submit the command's event; it is marked done with the step it stores."""
        try:
            await self._handler.submit(command.debate_id, command.event, inbox_id=command.id)
        except LeaseLost:
            await self._handler.let_go(command.debate_id)
            return
        except StoreUnavailable as exc:  # not the command's fault: tried again at a later pass
            self._out_of_reach(exc)
            return
        except Exception:  # a boundary: one bad command must not block the debate's inbox
            log.exception("debate %s: command %s failed", command.debate_id, command.event.kind)
        else:
            self._failures.pop(command.id, None)
            return  # applied: marked done with its step
        self._failures[command.id] = self._failures.get(command.id, 0) + 1
        if self._failures[command.id] >= COMMAND_ATTEMPTS:  # it keeps failing: given up
            await self._inbox.mark_done(command.id)
            del self._failures[command.id]

    async def _let_go_of_ended(self) -> None:
        for debate_id in self.leases.held():
            if not self._handler.is_idle(debate_id) or not self.leases.holds(debate_id):
                continue
            debate = await self._handler.get(debate_id)
            if not debate.phase.is_terminal:
                continue
            if await self._wiki.pending(debate_id) or await self._inbox.count(debate_id):
                continue
            if not await self._shown_last(debate):
                continue
            await self.leases.release(debate_id)
            log.info("debate %s ended: lease released", debate_id)
            self._forget(debate_id)

    async def _shown_last(self, debate: Debate) -> bool:
        """Show an ended debate's status once more before giving it up, if it was taken over;
        False while that must wait. A debate taken over from a lease that lapsed may have had
        a holder that was paused, not dead, with an edit of the status already sent: Discord
        applies a write whenever it arrives and cannot refuse a stale one, which would show
        the ended debate speaking, its Stop button live. Once the previous holder can no
        longer land anything (`previous_holder_done`), the final state is shown again."""
        if self._show_status is None or not self.leases.taken_over(debate.id):
            return True
        if not self.leases.previous_holder_done(debate.id):
            return False  # the next passes look again
        try:
            await self._show_status(debate)
        except LeaseLost:
            return False  # another process holds it now
        log.info("debate %s ended: its status shown again after the takeover", debate.id)
        return True
