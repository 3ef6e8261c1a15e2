"""The front ends' engine when several processes share the debates (issue 20).

The process that receives a click or a message does not run the debate: it reads the stored
state (to authorize and to answer at once), works out with the pure state machine what the
command will do (so the person gets the same reply as before: "not now", the card's new
choice), and stores the command in the inbox. The process holding the debate's lease applies
it, in order, for real.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from handlers.core.events import (
    BudgetChosen,
    BudgetDecided,
    Event,
    FormatChosen,
    OptionChosen,
    PeopleSaid,
    ProposalDeclined,
    StopRequested,
    UserAnswered,
)
from handlers.core.model import Actor, Debate, Proposal
from handlers.core.state_machine import authorized, transition
from handlers.debate_handler import DebateHandler
from handlers.ports import Clock
from handlers.store_ports import Store
from tools.store.inbox import Inbox


class EngineCommands(Protocol):
    """What a front end asks of the engine: the engine itself, or the inbox in front of it."""

    async def get(self, debate_id: int) -> Debate: ...
    async def may_act(self, debate_id: int, actor: Actor) -> bool: ...
    async def propose(self, proposal: Proposal) -> Debate | None: ...
    async def approve(
        self,
        debate_id: int,
        actor: Actor,
        format_name: str = "",
        options: tuple[tuple[str, str], ...] = (),
    ) -> Debate: ...
    async def decline(self, debate_id: int, actor: Actor) -> Debate: ...
    async def stop(self, debate_id: int, actor: Actor) -> Debate: ...
    async def extend(self, debate_id: int, actor: Actor, at: int = 0) -> Debate: ...
    async def conclude_now(self, debate_id: int, actor: Actor, at: int = 0) -> Debate: ...
    async def declare_consensus(self, debate_id: int, actor: Actor, at: int = 0) -> Debate: ...
    async def answer(self, debate_id: int, actor: Actor, text: str) -> Debate: ...
    async def said(self, debate_id: int, actor: Actor, text: str) -> Debate: ...
    async def choose_format(self, debate_id: int, actor: Actor, format_name: str) -> Debate: ...
    async def choose_option(self, debate_id: int, actor: Actor, key: str, value: str) -> Debate: ...
    async def choose_budget(self, debate_id: int, actor: Actor, rounds: int) -> Debate: ...


# The engine methods a stored command may name (the worker calls them by name).
COMMANDS = frozenset(
    {
        "approve",
        "decline",
        "stop",
        "extend",
        "conclude_now",
        "declare_consensus",
        "answer",
        "said",
        "choose_format",
        "choose_option",
        "choose_budget",
    }
)


class InboxCommands:
    """Commands stored for the debate's worker; each returns the state it will lead to."""

    def __init__(
        self,
        handler: DebateHandler,
        store: Store,
        inbox: Inbox,
        clock: Clock,
        wake: Callable[[], None] = lambda: None,
    ) -> None:
        self._handler = handler  # only to store proposals (it runs nothing here)
        self._store = store
        self._inbox = inbox
        self._clock = clock
        self._wake = wake
        self._rng = random.Random()  # noqa: S311  # a forecast's draw; the worker draws for real

    async def get(self, debate_id: int) -> Debate:
        """The debate as last stored (by whichever process runs it)."""
        return await self._store.load(debate_id)

    async def may_act(self, debate_id: int, actor: Actor) -> bool:
        """True if `actor` may press this debate's buttons or answer its questions."""
        return authorized(await self._store.load(debate_id), actor)

    async def propose(self, proposal: Proposal) -> Debate | None:
        """Store the proposal; a worker claims it and posts its card."""
        debate = await self._handler.propose(proposal)
        if debate is not None:
            await self._handler.let_go(debate.id)  # keep nothing of it here until claimed
            await self._inbox.notify()
            self._wake()
        return debate

    async def approve(
        self,
        debate_id: int,
        actor: Actor,
        format_name: str = "",
        options: tuple[tuple[str, str], ...] = (),
    ) -> Debate:
        """Open the room."""
        event = self._handler.approval(actor, format_name, options)
        return await self._put(debate_id, "approve", actor, (format_name, options), event)

    async def decline(self, debate_id: int, actor: Actor) -> Debate:
        """Close the card."""
        return await self._put(debate_id, "decline", actor, (), ProposalDeclined(actor))

    async def stop(self, debate_id: int, actor: Actor) -> Debate:
        """End the debate."""
        return await self._put(debate_id, "stop", actor, (), StopRequested(actor))

    async def extend(self, debate_id: int, actor: Actor, at: int = 0) -> Debate:
        """One more round at a pause."""
        event = BudgetDecided(actor, "extend", at)
        return await self._put(debate_id, "extend", actor, (at,), event)

    async def conclude_now(self, debate_id: int, actor: Actor, at: int = 0) -> Debate:
        """Conclude at a pause."""
        event = BudgetDecided(actor, "conclude", at)
        return await self._put(debate_id, "conclude_now", actor, (at,), event)

    async def declare_consensus(self, debate_id: int, actor: Actor, at: int = 0) -> Debate:
        """Declare consensus at a pause."""
        event = BudgetDecided(actor, "consensus", at)
        return await self._put(debate_id, "declare_consensus", actor, (at,), event)

    async def answer(self, debate_id: int, actor: Actor, text: str) -> Debate:
        """The people's answer to the moderator's question."""
        return await self._put(debate_id, "answer", actor, (text,), UserAnswered(actor, text))

    async def said(self, debate_id: int, actor: Actor, text: str) -> Debate:
        """Words typed in the room while no question was open."""
        return await self._put(debate_id, "said", actor, (text,), PeopleSaid(actor, text))

    async def choose_format(self, debate_id: int, actor: Actor, format_name: str) -> Debate:
        """A format picked on the card."""
        event = FormatChosen(actor, format_name)
        return await self._put(debate_id, "choose_format", actor, (format_name,), event)

    async def choose_option(self, debate_id: int, actor: Actor, key: str, value: str) -> Debate:
        """A format's setup answer picked on the card."""
        event = OptionChosen(actor, key, value)
        return await self._put(debate_id, "choose_option", actor, (key, value), event)

    async def choose_budget(self, debate_id: int, actor: Actor, rounds: int) -> Debate:
        """A round budget picked on the card."""
        event = BudgetChosen(actor, rounds)
        return await self._put(debate_id, "choose_budget", actor, (rounds,), event)

    async def _put(
        self, debate_id: int, name: str, actor: Actor, args: tuple[Any, ...], event: Event
    ) -> Debate:
        """Forecast the command's outcome on the stored state, then store the command."""
        before = await self._store.load(debate_id)
        forecast = transition(before, event, self._clock.now(), self._rng).debate
        await self._inbox.put(debate_id, name, actor, args)
        self._wake()
        return forecast
