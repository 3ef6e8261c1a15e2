"""The debate service: the front ends build events and hand them to one verb, `submit`, which
passes them to the debate's worker (the DebateWorkers it extends): it transitions, stores, then
runs the effects through the ports. Besides: proposing a debate, reading one, and the timers.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol

from handlers.core.admission import Submitted
from handlers.core.effects import PostCard
from handlers.core.events import Event, ProposalApproved, ProposalExpired, TimerDue
from handlers.core.formats import FORMATS, formats_for
from handlers.core.model import (
    DEFAULT_ROSTER,
    Backend,
    Debate,
    ModeratorSource,
    Participant,
    Phase,
    Proposal,
    Setup,
)
from handlers.core.moderation.state import Moderation
from handlers.core.server_config import ServerConfig
from handlers.core.spending.state import DEFAULT_TURN_USD, Spend, Window
from handlers.debate_workers import DebateWorkers
from handlers.effects_runner import EffectRunner
from handlers.leasing import EveryDebate, LeaseGuard
from handlers.ports import Clock, Debater, Moderator, PersonTyped, Room, Wiki
from handlers.store_ports import Precedents, ServerConfigs, StorePorts

log = logging.getLogger(__name__)

MAX_PRECEDENTS = 3  # past Conclusions shown on a card


class Engine(Protocol):
    """What a front end asks of the engine: this process's handler, or the gateway's inbox."""

    async def submit(self, debate_id: int, event: Event) -> Submitted:
        """Hand a debate an event."""

    async def propose(self, proposal: Proposal) -> Debate | None:
        """Store a proposal and show its card (None: refused)."""

    async def get(self, debate_id: int) -> Debate:
        """A debate's current state."""


@dataclass(frozen=True)
class HandlerConfig:
    """The engine's knobs."""

    language: str = "ko"
    max_rounds: int = 6
    proposal_ttl: timedelta = timedelta(minutes=30)
    roster: tuple[Participant, ...] = DEFAULT_ROSTER  # the participants a debate is opened with
    format: str = "free"  # DEFAULT_FORMAT: the format a debate runs when none is chosen
    budget_pause: bool = False  # BUDGET_PAUSE: at the round budget, wait for the people
    format_options: tuple[tuple[str, str], ...] = ()  # defaults of the formats' options
    poll_hours: int = 0  # POLL_HOURS: a stalemate ends in the people's poll (0: no poll)
    budget_usd: float = 0.0  # BUDGET_USD: the people's budget in dollars (0: rounds only)
    archive_hours: int = 0  # ARCHIVE_AFTER_HOURS: a concluded room is archived then (0: never)
    # The people chose the rule-based moderator (`--moderator rules`, or no model configured):
    # its rules moderate by choice, not as a fallback (a model unreachable at start is one).
    rules_chosen: bool = False


class DebateHandler(DebateWorkers):
    """Owns every debate's lifecycle: its events go to its worker, which stores and runs them."""

    def __init__(
        self,
        stores: StorePorts,
        moderator: Moderator,
        debaters: Mapping[Backend, Debater],
        wiki: Wiki,
        room: Room,
        clock: Clock,
        rng: random.Random,
        config: HandlerConfig,
        precedents: Precedents | None = None,
        guard: LeaseGuard | None = None,
        server_configs: ServerConfigs | None = None,
    ) -> None:
        runner = EffectRunner(
            stores.timers,
            stores.turns,
            moderator,
            debaters,
            wiki,
            room,
            clock,
            config.language,
            config.archive_hours,
        )
        # Which debates this process may act on: all of them, unless processes share them.
        guard = guard or EveryDebate()
        super().__init__(stores.debates, stores.effects, runner, clock, rng, guard)
        self._cards, self._timers, self._turns = stores.cards, stores.timers, stores.turns
        self._precedents = precedents
        self._debaters = debaters
        self._server_configs = server_configs
        self._roster = self._present(config.roster)  # a participant with no debater is left out
        if len(self._roster) < len(config.roster):
            left = [m.id for m in config.roster if m not in self._roster]
            log.warning("participants without a configured backend are left out: %s", left)
        self._config = config
        # The people run the rules (no model): each debate says so, and no fallback is told.
        rules = config.rules_chosen
        self._chosen = ModeratorSource.RULES if rules else ModeratorSource.GEMINI

    # ---- commands from the front ends ---------------------------------------

    async def propose(self, proposal: Proposal) -> Debate | None:
        """Store a proposal and show its card; None while that channel has a card waiting
        or the topic is already being debated there (one card at a time per channel). The
        store decides the race between processes proposing at once; these reads only spare
        the precedents' search when the answer is known already."""
        if await self._cards.waiting_cards(proposal.channel_id) or proposal.topic.casefold() in {
            t.casefold() for t in await self._cards.open_topics(proposal.channel_id)
        }:
            return None
        proposal = await self._with_precedents(proposal)
        chosen = ServerConfig()
        if self._server_configs is not None:
            chosen = await self._server_configs.lookup(proposal.guild_id, proposal.channel_id)
        roster = self._present(chosen.participants(self._roster))
        draft = Debate(
            id=0,  # the store's to give
            proposal=proposal,
            phase=Phase.PROPOSED,
            created_at=self._clock.now(),
            setup=Setup(
                max_rounds=chosen.rounds or self._config.max_rounds,
                roster=roster,
                format=self._suggested(proposal, roster, chosen.format),
                options=self._config.format_options,
                language=chosen.language or self._config.language,
                moderator=self._chosen,
            ),
            moderation=Moderation(source=self._chosen),
            spend=await self._spend(roster),
        )
        debate = await self._debates.create(draft, self._config.proposal_ttl, (PostCard(),))
        if debate is None:  # another process stored a card there first: it shows that one
            log.info("channel %d: a card waits there already", proposal.channel_id)
            return None
        self.wake(debate.id)
        return debate

    async def _spend(self, roster: tuple[Participant, ...]) -> Spend:
        """The card's estimate: each seat's mean recorded turn cost (the roster's, and the
        seats any format adds beside it, as the card may change the format), the seats a
        person types (free), and Claude's usage window."""
        recorded = await self._turns.turn_costs()
        options = self._config.format_options
        added = (m for name in FORMATS for m in FORMATS.named(name).seats_added(options))
        seats = tuple({m.id: m for m in (*roster, *added)}.values())
        per_turn = {
            m.id: recorded.get(m.id, (DEFAULT_TURN_USD.get(m.backend.value, 0.0), 0))[0]
            for m in seats
        }
        count = sum(recorded[m.id][1] for m in roster if m.id in recorded)
        window = getattr(self._debaters.get(Backend.CLAUDE_CLI), "window", None)
        return Spend(
            per_turn=tuple(per_turn.items()),
            recorded=count,
            typed=tuple(m.id for m in seats if self._typed(m)),
            window=window if isinstance(window, Window) else None,
            budget_usd=self._config.budget_usd,
        )

    def _typed(self, member: Participant) -> bool:
        """True when a person types the seat (its turns cost nothing)."""
        debater = self._debaters.get(member.backend)
        return isinstance(debater, PersonTyped) and debater.typed_by_person(member.id)

    async def _with_precedents(self, proposal: Proposal) -> Proposal:
        """Up to three past Conclusions related to the proposal (none if the search fails)."""
        if self._precedents is None or proposal.precedents:
            return proposal
        try:
            found = await self._precedents.search(
                f"{proposal.topic}\n{proposal.question}", MAX_PRECEDENTS
            )
        except Exception:  # a boundary: any wiki failure
            log.warning("precedents: the search failed; the card goes without them", exc_info=True)
            return proposal
        return replace(proposal, precedents=found[:MAX_PRECEDENTS])

    def _suggested(self, proposal: Proposal, roster: tuple[Participant, ...], chosen: str) -> str:
        """The moderator's suggested format if the roster can run it, else the server's
        configured one, else DEFAULT_FORMAT."""
        runnable = formats_for(roster)
        for name in (proposal.suggested_format, chosen):
            if name in runnable:
                return name
        return self._config.format

    def _present(self, roster: tuple[Participant, ...]) -> tuple[Participant, ...]:
        """The participants whose backend has a debater here (all, if fewer than two would
        be left: then their turns fail, and the thread says why)."""
        present = tuple(m for m in roster if m.backend in self._debaters)
        return present if len(present) >= 2 else roster

    async def submit(
        self, debate_id: int, event: Event, *, inbox_id: int | None = None
    ) -> Submitted:
        """Admit, store and run an event; `inbox_id`, its stored command, is marked done with it."""
        return await self._step(debate_id, self._completed(event), inbox_id=inbox_id)

    def _completed(self, event: Event) -> Event:
        """An approval with this engine's roster, budget pause, poll hours and dollar budget."""
        if not isinstance(event, ProposalApproved):
            return event
        return replace(
            event,
            roster=event.roster or self._roster,
            pauses_at_budget=self._config.budget_pause,
            poll_hours=self._config.poll_hours,
            budget_usd=self._config.budget_usd,
        )

    async def expire_due(self) -> list[int]:
        """Expire every card that waited too long; returns their ids."""
        found = await self._cards.due_proposals(self._clock.now())
        due = [debate_id for debate_id in found if self._guard.holds(debate_id)]
        for debate_id in due:
            await self._patiently(debate_id, partial(self._step, debate_id, ProposalExpired()))
        return due

    async def fire_due_timers(self) -> list[int]:
        """Hand each debate whose stored timer is due (a poll ends, a limit resets) its TimerDue;
        a database out of reach meanwhile is waited out, as a worker waits it out."""
        found = await self._timers.due_timers(self._clock.now())
        due = [debate_id for debate_id in found if self._guard.holds(debate_id)]
        for debate_id in due:
            # A step made again after the store went away is safe: the first one stored (if
            # it was) has used the timer, and the repeat finds nothing due to act on.
            await self._patiently(debate_id, partial(self._step, debate_id, TimerDue()))
            done = partial(self._timers.timer_done, debate_id, self._clock.now())
            await self._patiently(debate_id, done)
        return due

    async def get(self, debate_id: int) -> Debate:
        """A debate's current state."""
        return await self._debates.load(debate_id)

    def now(self) -> datetime:
        """The engine's clock (its stored timers are set and judged by it)."""
        return self._clock.now()
