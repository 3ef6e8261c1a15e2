"""Hand-built debates for `/debate stats`: a debate whose every figure is stated (who spoke
when with which stance, who failed, who was held back, the unquoted concessions, the claims and
the Conclusion, each seat's cost), stored in a real store under a server of its own."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from handlers.core.ending.state import Conclusion, Ending
from handlers.core.kinds import Outcome, Stance
from handlers.core.model import (
    AG,
    CLAUDE,
    Debate,
    ParsedReply,
    Phase,
    Proposal,
    Setup,
    Turn,
    TurnMeta,
)
from handlers.core.moderation.claims import Claim
from handlers.core.spending.state import Spend
from handlers.core.turns.state import Floor
from tests.doubles import T0
from tools.store.debates import SqliteStore

GUILD_A, GUILD_B = 111, 222


@dataclass(frozen=True)
class Said:
    """One turn: who spoke, with which stance."""

    seat: str
    stance: Stance | None = None


def built(
    said: tuple[Said, ...],
    *,
    debate_id: int = 1,
    guild_id: int = GUILD_A,
    faltered: tuple[str, ...] = (),
    benched: tuple[str, ...] = (),
    unquoted: tuple[int, ...] = (),
    claims: tuple[Claim, ...] = (),
    conclusion: Conclusion | None = None,
    costs: tuple[tuple[str, float], ...] = (),
    at: datetime = T0,
) -> Debate:
    """An ended debate (concluded if it has a Conclusion) of the default roster (AG, Claude)."""
    proposal = Proposal(guild_id + 1, "topic", "q", "r", 1.0, "", (1,), guild_id=guild_id)
    log = tuple((n, s.seat) for n, s in enumerate(said, 1))
    floor = Floor(
        turns=len(said),
        log=log,
        faltered=faltered,
        unquoted=tuple((n, said[n - 1].seat) for n in unquoted),
    )
    debate = Debate(debate_id, proposal, Phase.CONCLUDED, at, setup=Setup(4))
    spend = Spend(cost_usd=sum(c for _, c in costs), seats=costs, benched=benched)
    outcome = Outcome.CONSENSUS if conclusion else Outcome.FAILED
    ending = Ending(ended_at=at, outcome=outcome, conclusion=conclusion)
    moderation = replace(debate.moderation, claims=claims)
    return replace(debate, floor=floor, spend=spend, ending=ending, moderation=moderation)


def turns_of(debate: Debate, said: tuple[Said, ...]) -> tuple[Turn, ...]:
    """The debate's stored turns, each with its stance in its parsed reply."""
    return tuple(
        Turn(
            debate.id,
            n,
            1 + (n - 1) // 2,
            s.seat,
            f"turn {n}",
            f"turn {n}",
            "0" * 64,
            ParsedReply(f"turn {n}", stance=s.stance),
            TurnMeta(),
            debate.created_at,
        )
        for n, s in enumerate(said, 1)
    )


async def stored(store: SqliteStore, debate: Debate, said: tuple[Said, ...]) -> int:
    """`debate` (with `said` as its turns) stored as the engine stores one; its id."""
    made = await store.create(replace(debate, id=0, phase=Phase.PROPOSED), timedelta(hours=1), ())
    assert made is not None
    final = replace(debate, id=made.id, setup=made.setup)
    for turn in turns_of(final, said):
        await store.save_step(final, (), turn, final.created_at)
    await store.save_step(final, (), None, final.created_at)
    return made.id


ONE_SIDED = (Said(AG, Stance.DISAGREE), Said(CLAUDE, Stance.DISAGREE))
CONCEDED = (
    Said(AG, Stance.DISAGREE),
    Said(CLAUDE, Stance.DISAGREE),
    Said(AG, Stance.PARTIAL),  # turn 3: a concession, quoted
    Said(CLAUDE, Stance.AGREE),  # turn 4: a concession, unquoted (the debate says so)
    Said(AG, Stance.AGREE),  # turn 5: a second concession of AG's, quoted
    Said(CLAUDE, Stance.AGREE),  # no move: no concession
)
