"""The front ends' engine when several processes share the debates.

The process that receives a click or a message does not run the debate: it reads the stored
state, answers the person from the same rule the engine applies (`admits`), and stores the
event in the inbox. The process holding the debate's lease submits it, in order, for real.
"""

from __future__ import annotations

from collections.abc import Callable

from handlers.core.admission import Admission, Submitted, admits, answers
from handlers.core.events import Event
from handlers.core.model import Debate, Proposal
from handlers.debate_handler import DebateHandler
from handlers.store_ports import Debates
from tools.store.inbox import Inbox


class InboxEngine:
    """The engine of a process that shares the debates: events stored for the debate's
    worker, answered at once from the stored state."""

    def __init__(
        self,
        handler: DebateHandler,
        store: Debates,
        inbox: Inbox,
        wake: Callable[[], None] = lambda: None,
    ) -> None:
        self._handler = handler  # only to store proposals (it runs nothing here)
        self._store = store
        self._inbox = inbox
        self._wake = wake

    async def get(self, debate_id: int) -> Debate:
        """The debate as last stored (by whichever process runs it)."""
        return await self._store.load(debate_id)

    async def propose(self, proposal: Proposal) -> Debate | None:
        """Store the proposal; a worker claims it and posts its card."""
        debate = await self._handler.propose(proposal)
        if debate is not None:
            await self._handler.let_go(debate.id)  # keep nothing of it here until claimed
            await self._inbox.notify()
            self._wake()
        return debate

    async def submit(self, debate_id: int, event: Event) -> Submitted:
        """Store an event the debate admits now, for its holder (the debate after is unknown)."""
        debate = await self._store.load(debate_id)
        admission, key = admits(debate, event), answers(debate, event)
        if admission is Admission.NOT_NOW and key is not None:  # decided, and applied already:
            first = await self._inbox.first(debate_id, key)  # by whom (the card's first click)
            if first is not None:
                return Submitted(Admission.ANSWERED, debate, first)
        if admission is not Admission.TAKEN:
            return Submitted(admission, debate)  # unchanged: why, and what is open, are in it
        first = await self._inbox.put(debate_id, event, key)
        if first is not None:  # another's answer to the same came first: this one is not kept
            return Submitted(Admission.ANSWERED, debate, first)
        self._wake()
        return Submitted(admission)
