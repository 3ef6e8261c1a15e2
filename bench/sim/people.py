"""The people of a simulated debate: who approves, chooses, answers, votes, stops and skips,
authorised or not, late, twice, two at the same moment, or while an answer is coming in."""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING

from bench.sim.checks import Driver
from bench.sim.world import World
from handlers.core.admission import Admission, Submitted
from handlers.core.events import (
    BudgetDecided,
    Event,
    FormatChosen,
    OptionChosen,
    PeopleSaid,
    ProposalApproved,
    ProposalDeclined,
    SkipRequested,
    SteelmanRequested,
    StopRequested,
    UserAnswered,
)
from handlers.core.formats import card_options, formats_for
from handlers.core.model import (
    AG,
    CLAUDE,
    GEMINI,
    Actor,
    Backend,
    Debate,
    Participant,
    Phase,
    Proposal,
)
from handlers.core.poll.state import PollStage
from handlers.store_ports import StoreUnavailable
from tests.handlers.doubles import Crash

if TYPE_CHECKING:
    from bench.sim.run import Simulation

ALICE = Actor(user_id=101, name="alice")
CAROL = Actor(user_id=102, name="carol")
MALLORY = Actor(user_id=666, name="mallory")  # not in the conversation
FORMATS = ("free", "boardroom", "adversarial", "ledger")
SEATS = (
    Participant(AG, Backend.AG_RELAY, "AG", persona="architect"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude", persona="security reviewer"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini", persona="product owner"),
    Participant("claude-2", Backend.CLAUDE_CLI, "Claude 2", persona="operator"),
    Participant("gemini-2", Backend.GEMINI_CLI, "Gemini 2", persona="finance"),
)
ONE_ANSWER = frozenset({"user_answered", "budget_decided"})  # of two at once, one is taken
EVIDENCE = "1. E1: three replicas each hold a cache\n2. E2: 4 s invalidation lag observed"


def driver(seed: int, index: int) -> Driver:
    """Debate `index` of the run: its world, format and roster, from the seed alone."""
    world = World(seed, index)
    rng = world.rng("setup")
    world.always_limited = rng.random() < 0.04
    fmt = FORMATS[index % len(FORMATS)]
    return Driver(index, world, fmt, _roster(fmt, rng))


def _roster(fmt: str, rng: random.Random) -> tuple[Participant, ...]:
    """2 to 5 seats the format can run (the first fitting size from a random one)."""
    for size in [rng.randint(2, 5), 2, 3, 4, 5]:
        seats = (SEATS[0], SEATS[1], *rng.sample(SEATS[2:], size - 2))
        if fmt in formats_for(seats):
            return seats
    raise AssertionError(f"no roster runs {fmt}")


async def propose(sim: Simulation, driver: Driver) -> None:
    """The chat that becomes the debate's card (its topic names it for the moderator)."""
    topic = f"«sim:{driver.index}» {sim.seed}: Redis vs LRU"
    channel = 10_000 + driver.index
    made = await sim.h.propose(
        Proposal(channel, topic, "Which cache?", "open", 0.9, "", people_ids=(101, 102))
    )
    if made is None:
        raise AssertionError("the proposal was refused")
    driver.debate_id = made.id
    sim.drivers[made.id] = driver
    sim.tally.formats[driver.fmt] += 1


async def submit(sim: Simulation, driver: Driver, event: Event) -> Submitted | None:
    """Hand the engine an event; the process dying inside restarts it, and a database out of
    reach is what the person is told (None: not known)."""
    try:
        return await sim.h.submit(driver.debate_id, event)
    except Crash:
        driver.world.crashed = True
    except StoreUnavailable:
        pass
    return None


async def at_once(sim: Simulation, driver: Driver, first: Event, second: Event) -> None:
    """Two people's events at the same moment: one may be taken, the other told why not."""
    sim.tally.at_once += 1
    done = await asyncio.gather(submit(sim, driver, first), submit(sim, driver, second))
    taken = [d for d in done if d is not None and d.taken]
    if len(taken) > 1 and first.kind == second.kind and first.kind in ONE_ANSWER:
        sim.violation(driver, f"two {first.kind} at once were both taken")


async def act(sim: Simulation, driver: Driver, debate: Debate) -> float:
    """What the people do at a debate that waits for them; or the seconds it waits for a
    timer (the run lets them pass once every debate of the batch has acted)."""
    rng = driver.world.rng("act", debate.floor.turns)
    who, other = rng.sample([ALICE, CAROL], 2)
    if debate.phase is Phase.PROPOSED:
        await _card(sim, driver, debate, rng, who, other)
        return 0.0
    polling = debate.poll is not None and debate.poll.stage is PollStage.OPEN
    if polling or (debate.people.paused == "limit" and rng.random() < 0.5):  # a timer runs out
        if debate.poll is not None and polling:
            votes = tuple(rng.randint(0, 3) for _ in debate.poll.answers)
            sim.room.inner.votes_shown[debate.id] = votes
        return (debate.poll.hours if debate.poll else 24) * 3600 + 1
    roll = rng.random()
    if roll < 0.08:
        await submit(sim, driver, StopRequested(who))
    elif roll < 0.12:
        await submit(sim, driver, PeopleSaid(who, "모두 LRU를 좋아해요"))
    elif roll < 0.16:
        await submit(sim, driver, SkipRequested(who))
    elif roll < 0.20:
        await submit(sim, driver, SteelmanRequested(who))
    if debate.phase is Phase.AWAITING_USER and debate.people.paused:
        await _pause(sim, driver, debate, rng, who, other)
    elif debate.phase is Phase.AWAITING_USER:
        await _question(sim, driver, debate, rng, who, other)
    elif not debate.phase.is_terminal:
        return 3600.0  # a wait on a timer (a retry after a rate limit): let it pass
    return 0.0


async def _card(
    sim: Simulation, driver: Driver, debate: Debate, rng: random.Random, who: Actor, other: Actor
) -> None:
    """Approve (now and then twice, or against a Not now at the same moment), or decline; a
    form on the card filled by two people at once."""
    if rng.random() < 0.08:
        await submit(sim, driver, ProposalDeclined(who))
        return
    await submit(sim, driver, FormatChosen(who, driver.fmt))
    forms = [o.key for o in card_options(driver.fmt) if o.is_text]
    if forms and rng.random() < 0.3:
        key = rng.choice(forms)
        await at_once(
            sim, driver, OptionChosen(who, key, EVIDENCE), OptionChosen(other, key, "x" * 5000)
        )
    approve = ProposalApproved(who, roster=driver.roster, format=driver.fmt)
    if rng.random() < 0.2:
        await at_once(sim, driver, approve, ProposalDeclined(other))
    else:
        await submit(sim, driver, approve)
        if rng.random() < 0.2:  # a double click
            await submit(sim, driver, approve)


async def _pause(
    sim: Simulation, driver: Driver, debate: Debate, rng: random.Random, who: Actor, other: Actor
) -> None:
    """The people's word at a pause: by one, by two at once, or on a stale button."""
    choice = rng.choice(["extend", "conclude", "consensus", "resume"])
    stale = debate.people.pauses - 1 if rng.random() < 0.2 else debate.people.pauses
    first = BudgetDecided(who, choice, at=stale)  # type: ignore[arg-type]  # one of the four words BudgetDecided takes
    if rng.random() < 0.3:
        second = rng.choice(["extend", "conclude", "consensus", "resume"])
        also = BudgetDecided(other, second, at=debate.people.pauses)  # type: ignore[arg-type]  # one of the four words BudgetDecided takes
        await at_once(sim, driver, first, also)
    else:
        await submit(sim, driver, first)
    await submit(sim, driver, BudgetDecided(who, "conclude", at=debate.people.pauses))


async def _question(
    sim: Simulation, driver: Driver, debate: Debate, rng: random.Random, who: Actor, other: Actor
) -> None:
    """An answer to the moderator's question: typed, a button, or two forms at once."""
    answer = rng.choice(["Redis", "LRU", "x" * 5000, "", EVIDENCE])
    number = debate.question_number
    if rng.random() < 0.3:
        await at_once(
            sim, driver, UserAnswered(who, answer, number), UserAnswered(other, "LRU", number)
        )
        return
    await submit(sim, driver, UserAnswered(who, answer))
    await submit(sim, driver, UserAnswered(who, "LRU"))


async def meanwhile(sim: Simulation, driver: Driver) -> None:
    """The people act while a debater's answer is being handed over: a Stop, words, a Skip,
    a Steelman, or a pause's button, as the debate stands."""
    await asyncio.sleep(0)
    rng = driver.world.rng("meanwhile")
    roll = rng.random()
    event: Event
    if roll < 0.35:
        event = StopRequested(ALICE)
    elif roll < 0.5:
        event = SkipRequested(CAROL)
    elif roll < 0.6:
        event = SteelmanRequested(ALICE)
    elif roll < 0.8:
        event = PeopleSaid(CAROL, "지금 답이 오고 있나요?")
    else:
        event = BudgetDecided(ALICE, rng.choice(["resume", "conclude"]))
    await submit(sim, driver, event)


async def outsider(sim: Simulation, driver: Driver, debate: Debate) -> None:
    """Someone outside the conversation clicks what is there: refused, nothing changes
    (checked while nothing else acts on the batch)."""
    rng = driver.world.rng("outsider", debate.floor.turns)
    for event in (
        ProposalApproved(MALLORY),
        StopRequested(MALLORY),
        SteelmanRequested(MALLORY),
        UserAnswered(MALLORY, "Redis"),
        BudgetDecided(MALLORY, "conclude", at=debate.people.pauses),
    ):
        if rng.random() < 0.5:
            continue
        before = await sim.h.get(debate.id)
        got = await submit(sim, driver, event)
        sim.tally.refused += 1
        after = await sim.h.get(debate.id)
        if got is not None and got.admission is not Admission.REFUSED:
            sim.violation(driver, f"an outsider's {event.kind} was {got.admission}")
        if after.phase is not before.phase or after.floor.turns != before.floor.turns:
            sim.violation(driver, f"an outsider's {event.kind} changed the debate")
