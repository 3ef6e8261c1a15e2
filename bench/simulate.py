"""Seeded simulation: many debates through the real engine and store, with crashes and faults.

The pure core, the engine (DebateHandler and its workers) and the real store run as in
production, on one SQLite file (or the PostgreSQL database of `DATABASE_URL`). The outside
world is simulated from one seed: debaters that answer in each format's layout, in hostile
shapes, huge, empty, or fail; a moderator that judges, asks the people, concludes, answers a
task with junk or is out; people who approve, choose formats, answer, vote, stop and skip,
authorised or not, late or twice. Any port call may fail (the engine retries it) and at any
port call or committed step the process may crash: everything in memory is dropped and the
engine restarts from the store, as after `kill -9`.

Invariants, checked after every debate:
- every reply a debater gave that the store kept is posted once, whole, and in the Round-Log
  once (by the ports' own records), and no stored turn lacks its post;
- a debater is asked for a turn again only when its earlier answer was not stored (a crash
  before the save, or a failure): `paid_repeats` counts those;
- every debate ends, or waits on a named human step, within its budget of steps;
- an event of someone outside the conversation is refused and changes nothing.
Single process: the lease fence is covered by tests/tools/store and tests/e2e, not here.

Time, ids and randomness come from the simulator, so a seed replays: a violation prints the
seed and the debate index; `--seed S --only I` runs that debate alone.

Run: .venv/bin/python bench/simulate.py --seed 1 --debates 2000 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from handlers.core.admission import Admission, Submitted
from handlers.core.effects import Effect
from handlers.core.events import (
    BudgetDecided,
    Event,
    FormatChosen,
    PeopleSaid,
    ProposalApproved,
    ProposalDeclined,
    SkipRequested,
    StopRequested,
    UserAnswered,
)
from handlers.core.formats import formats_for
from handlers.core.i18n import Strings
from handlers.core.kinds import Action, FailureKind, Phase
from handlers.core.model import (
    AG,
    CLAUDE,
    GEMINI,
    Actor,
    Backend,
    Conclusion,
    Debate,
    Decision,
    Detection,
    ModeratorView,
    Participant,
    Proposal,
    Turn,
    TurnMeta,
    UserQuestion,
)
from handlers.core.poll_data import PollStage
from handlers.debate_handler import DebateHandler, HandlerConfig
from handlers.ports import (
    DebaterError,
    DebaterOutput,
    ModeratorUnavailable,
    TaskRequest,
    TurnRequest,
)
from handlers.rules_moderator import RulesModerator
from tests.doubles import FakeClock
from tests.handlers import adversarial_script, boardroom_script
from tests.handlers.doubles import Crash, FakeRoom, FakeWiki, reply
from tools.store.db import Database
from tools.store.debates import SqliteStore

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
EVIDENCE = "1. E1: three replicas each hold a cache\n2. E2: 4 s invalidation lag observed"
STEP_BUDGET = 60  # settles (restarts included) a debate may take before it must have ended
SETTLE_TIMEOUT_S = 60.0
CRASH_P = 0.02  # per port call or committed step
FAULT_P = 0.03  # per room or wiki call
MAX_CRASHES = 3  # per debate: a process does not crash forever


class PortFault(Exception):
    """A port call that failed (Discord or the wiki answered 500): the engine retries it."""


@dataclass
class World:
    """The seeded outside world of one debate, shared by every port double."""

    rng: random.Random
    crash_p: float = CRASH_P
    fault_p: float = FAULT_P
    crashed: bool = False
    crashes: int = 0
    faults: int = 0
    calls: int = 0
    log: list[str] = field(default_factory=list)

    def tick(self, name: str) -> None:
        """A port call or committed step: it may crash the process or fail."""
        self.calls += 1
        self.log.append(name)
        roll = self.rng.random()
        if roll < self.crash_p and self.crashes < MAX_CRASHES:
            self.crashes += 1
            self.crashed = True
            raise Crash(name)
        if name.startswith(("room:", "wiki:")) and roll < self.crash_p + self.fault_p:
            self.faults += 1
            raise PortFault(name)


class SimStore(SqliteStore):
    """The real store; the process may crash right after a step is committed."""

    def __init__(self, db: Database, world: World) -> None:
        super().__init__(db)
        self.world = world

    async def save_step(  # type: ignore[override]
        self, debate: Debate, effects: Sequence[Effect], turn: Turn | None, *a: Any, **kw: Any
    ) -> None:
        await super().save_step(debate, effects, turn, *a, **kw)
        self.world.tick("stored")


class SimDebater:
    """Answers in the debate's format layout, in hostile shapes, or fails; records each ask."""

    backend = Backend.CLAUDE_CLI  # every seat's backend answers through this one double

    def __init__(self, world: World, formats: dict[int, str]) -> None:
        self.world = world
        self.formats = formats  # debate id -> its format (the layout to answer in)
        self.asked: list[tuple[int, int, str]] = []  # (debate, turn, text given or "")
        self.serial = 0

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        self.world.tick(f"speak:{request.participant}")
        self.serial += 1
        roll = self.world.rng.random()
        if roll < 0.06:
            self.asked.append((request.debate_id, request.turn, ""))
            kind = self.world.rng.choice(list(FailureKind))
            retry = self.world.rng.choice([None, 1.0, 30.0])
            raise DebaterError(kind, "simulated", retry)
        text = f"{self._text(request, roll)}\n\n<!-- answer {self.serial} -->"
        self.asked.append((request.debate_id, request.turn, text))
        meta = TurnMeta(model="sim", input_tokens=10, output_tokens=20, cost_usd=0.01)
        return DebaterOutput(text=text, raw=f"RAW<{text}>", meta=meta)

    def _text(self, request: TurnRequest, roll: float) -> str:
        rng, who = self.world.rng, request.participant
        if roll < 0.14:
            return rng.choice(HOSTILE)(rng)
        fmt = self.formats.get(request.debate_id, "free")
        vote = rng.choice(["yes", "no", "conditional"])
        if fmt == "boardroom":
            lang = rng.choice(["ko", "pt-BR", "en"])
            if request.round <= 1:
                return boardroom_script.position(who, vote, lang)
            return boardroom_script.rebuttal(who, vote, lang)
        if fmt == "adversarial":
            return rng.choice(
                [
                    adversarial_script.advocate(),
                    adversarial_script.challenger(),
                    adversarial_script.reconciler(),
                    adversarial_script.validator(),
                ]
            )
        stance = rng.choice(["agree", "partial", "disagree", "AGREE"])
        return reply(f"{who} on turn {request.turn}: {rng.random():.6f}", stance)

    async def forget(self, debate_id: int) -> None:
        self.world.tick("forget")


HOSTILE = (
    lambda rng: "[" * 1000 + "]" * 1000,
    lambda rng: "{" + '"a":{' * 800 + "}" * 801,
    lambda rng: "x" * rng.randint(100_000, 300_000),
    lambda rng: "```json\n" + '{"opinion": 5, "stance": ["agree"]}' + "\n```",
    lambda rng: '{"vote": "no"} 1. VOTE: YES ' + "E1 | supports | " * 300,
    lambda rng: "\u200b\u202e\ufeff" + "한국어 " * 500 + "\x00",
    lambda rng: "KNOWN_GAPS: " + "| " * 2000,
    lambda rng: "[debate 1 · turn 3] " + reply("echoed tag", "agree"),
)


class SimModerator:
    """Judges, asks the people, concludes; answers tasks with junk; is out now and then."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.rules = RulesModerator(Strings("ko"))

    async def detect(self, window: Any, language: str = "") -> Detection:
        return await self.rules.detect(window)

    async def judge(self, view: ModeratorView) -> Decision:
        self.world.tick("judge")
        rng = self.world.rng
        roll = rng.random()
        if roll < 0.15:
            return await self.rules.judge(view)  # out of quota: the rules stand in
        if roll < 0.22:
            question = UserQuestion("Which one?", ("Redis", "LRU") if rng.random() < 0.7 else ())
            return Decision(action=Action.ASK_USER, user_question=question, summary="asked")
        if roll < 0.30:
            return Decision(action=Action.CONCLUDE, consensus=0.9, summary="agreed")
        return Decision(action=Action.CONTINUE, consensus=rng.random(), summary="going on")

    async def conclude(self, view: ModeratorView) -> Conclusion:
        self.world.tick("conclude")
        if self.world.rng.random() < 0.2:
            return await self.rules.conclude(view)
        return Conclusion(decision="Start with LRU", agreed=("keep it simple",))

    async def perform(self, request: TaskRequest) -> str:
        self.world.tick(f"perform:{request.task}")
        rng = self.world.rng
        roll = rng.random()
        if roll < 0.4:
            raise ModeratorUnavailable("simulated: quota, timeout or refusal")
        if request.task == "audit" and roll < 0.8:
            return adversarial_script.intake(rng.randint(0, 4), binary=rng.random() < 0.5)
        return rng.choice(HOSTILE)(rng) if roll < 0.9 else "{}"


@dataclass
class Tally:
    """What the run did and found."""

    debates: int = 0
    formats: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    crashes: int = 0
    faults: int = 0
    paid_repeats: int = 0
    refused: int = 0
    violations: list[dict[str, Any]] = field(default_factory=list)


class Simulation:
    """One run: debates one after another on one database, each from its own seeded world."""

    def __init__(self, seed: int, target: str, tally: Tally) -> None:
        self.seed, self.target, self.tally = seed, target, tally
        self.clock = FakeClock()
        self.formats: dict[int, str] = {}
        self.handler: DebateHandler | None = None
        self.db: Database | None = None

    async def start(self, world: World, debaters: SimDebater, moderator: SimModerator) -> None:
        """A process: the real engine on the store, the world's doubles for the rest."""
        self.db = await Database.open(self.target)
        self.handler = DebateHandler(
            SimStore(self.db, world),
            moderator,
            dict.fromkeys(Backend, debaters),
            self.wiki,
            self.room,
            self.clock,
            random.Random(world.rng.random()),
            HandlerConfig(
                max_rounds=world.rng.randint(1, 3),
                retry_wait_scale=0.0,
                roster=SEATS[:2],
                budget_pause=world.rng.random() < 0.4,
                poll_hours=world.rng.choice([0, 0, 1]),
            ),
        )

    async def stop(self) -> None:
        """The process ends: every worker, every open handle, everything in memory."""
        if self.handler is not None:
            await self.handler.aclose()
        if self.db is not None:
            await self.db.close()
        self.handler = self.db = None

    async def run(self, count: int, only: int | None = None) -> None:
        self.room, self.wiki = FakeRoom(), FakeWiki()
        for index in range(count) if only is None else [only]:
            world = World(random.Random(self.seed * 1_000_003 + index))
            self.room.plan = self.wiki.plan = world  # type: ignore[assignment]
            debaters, moderator = SimDebater(world, self.formats), SimModerator(world)
            await self.start(world, debaters, moderator)
            try:
                await self.debate(index, world, debaters, moderator)
            except Exception as exc:  # a violation: the engine raised into the caller
                self.violation(index, world, f"raised {exc!r}")
            finally:
                await self.stop()
            self.tally.debates += 1
            self.tally.crashes += world.crashes
            self.tally.faults += world.faults

    async def debate(
        self, index: int, world: World, debaters: SimDebater, moderator: SimModerator
    ) -> None:
        rng = world.rng
        fmt = FORMATS[index % len(FORMATS)]
        roster = self.roster(fmt, rng)
        topic = f"sim {self.seed}/{index}: Redis vs LRU"
        made = await self.h.propose(
            Proposal(1000 + index, topic, "Which cache?", "open", 0.9, "", people_ids=(101, 102))
        )
        if made is None:
            self.violation(index, world, "the proposal was refused")
            return
        self.formats[made.id] = fmt
        debate_id = made.id
        self.tally.formats[fmt] += 1
        for _ in range(STEP_BUDGET):
            debate = await self.settle(world, debaters, moderator, debate_id)
            if debate is None:
                self.violation(index, world, "an effect fails at every start")
                return
            if debate.phase.is_terminal:
                self.tally.outcomes[debate.phase.value] += 1
                await self.check(index, world, debaters, debate)
                return
            await self.act(index, world, debate, roster, fmt)
        if debate.phase is Phase.AWAITING_USER:  # waits on a named human step: allowed
            self.tally.outcomes["waiting_on_people"] += 1
            await self.check(index, world, debaters, debate)
            return
        self.violation(index, world, f"did not end in {STEP_BUDGET} steps ({debate.phase})")

    def roster(self, fmt: str, rng: random.Random) -> tuple[Participant, ...]:
        """2 to 5 seats the format can run (the first fitting size from a random one)."""
        for size in [rng.randint(2, 5), 2, 3, 4, 5]:
            seats = (SEATS[0], SEATS[1], *rng.sample(SEATS[2:], size - 2))
            if fmt in formats_for(seats):
                return seats
        raise AssertionError(f"no roster runs {fmt}")

    async def settle(
        self, world: World, debaters: SimDebater, moderator: SimModerator, debate_id: int
    ) -> Debate | None:
        """Wait until the debate's worker is idle; a crash restarts the process, and so does
        an effect that kept failing (the next start runs it again). None: it never settled."""
        for _ in range(STEP_BUDGET):
            await asyncio.wait_for(self.h.wait_idle(debate_id), SETTLE_TIMEOUT_S)
            if world.crashed or await self.h._store.pending_effects(debate_id, 1):
                world.crashed = False
                await self.stop()
                await self.start(world, debaters, moderator)
                await self.h.resume_all()
                continue
            return await self.h.get(debate_id)
        return None

    async def act(
        self, index: int, world: World, debate: Debate, roster: tuple[Participant, ...], fmt: str
    ) -> None:
        """What the people do at a debate that waits for them."""
        rng = world.rng
        await self.outsider(index, world, debate)
        who = rng.choice([ALICE, CAROL])
        if debate.phase is Phase.PROPOSED:
            if rng.random() < 0.1:
                await self.submit(world, debate.id, ProposalDeclined(who))
                return
            await self.submit(world, debate.id, FormatChosen(who, fmt))
            event = ProposalApproved(who, roster=roster, format=fmt)
            await self.submit(world, debate.id, event)
            if rng.random() < 0.2:  # a double click
                await self.submit(world, debate.id, event)
            return
        polling = debate.poll is not None and debate.poll.stage is PollStage.OPEN
        if polling or (debate.paused == "limit" and rng.random() < 0.5):  # a timer runs out
            if debate.poll is not None and polling:
                self.room.votes_shown[debate.id] = tuple(
                    rng.randint(0, 3) for _ in debate.poll.answers
                )
            self.clock.advance((debate.poll.hours if debate.poll else 24) * 3600 + 1)
            try:
                await self.h.fire_due_timers()
            except Crash:
                world.crashed = True
            return
        roll = rng.random()
        if roll < 0.08:
            await self.submit(world, debate.id, StopRequested(who))
        elif roll < 0.12:
            await self.submit(world, debate.id, PeopleSaid(who, "모두 LRU를 좋아해요"))
        elif roll < 0.16:
            await self.submit(world, debate.id, SkipRequested(who))
        if debate.phase is Phase.AWAITING_USER and debate.paused:
            choice = rng.choice(["extend", "conclude", "consensus", "resume"])
            late = debate.turns - 1 if rng.random() < 0.2 else debate.turns
            await self.submit(world, debate.id, BudgetDecided(who, choice, at=late))  # type: ignore[arg-type]
            await self.submit(world, debate.id, BudgetDecided(who, "conclude", at=debate.turns))
        elif debate.phase is Phase.AWAITING_USER:
            answer = rng.choice(["Redis", "LRU", "x" * 5000, "", EVIDENCE])
            await self.submit(world, debate.id, UserAnswered(who, answer))
            await self.submit(world, debate.id, UserAnswered(who, "LRU"))
        elif not debate.phase.is_terminal:
            self.clock.advance(3600)  # a wait on a timer (a retry after a rate limit): let it pass

    async def outsider(self, index: int, world: World, debate: Debate) -> None:
        """Someone outside the conversation clicks what is there: refused, nothing changes."""
        for event in (
            ProposalApproved(MALLORY),
            StopRequested(MALLORY),
            UserAnswered(MALLORY, "Redis"),
            BudgetDecided(MALLORY, "conclude", at=debate.turns),
        ):
            if world.rng.random() < 0.5:
                continue
            before = await self.h.get(debate.id)
            got = await self.submit(world, debate.id, event)
            self.tally.refused += 1
            after = await self.h.get(debate.id)
            if got is not None and got.admission is not Admission.REFUSED:
                self.violation(index, world, f"an outsider's {event.kind} was {got.admission}")
            if after.phase is not before.phase or after.turns != before.turns:
                self.violation(index, world, f"an outsider's {event.kind} changed the debate")

    async def submit(self, world: World, debate_id: int, event: Event) -> Submitted | None:
        """Hand the engine an event; a crash inside restarts the process (None: not known)."""
        try:
            return await self.h.submit(debate_id, event)
        except Crash:
            world.crashed = True
            return None

    async def check(self, index: int, world: World, debaters: SimDebater, debate: Debate) -> None:
        """The invariants of one ended debate (see the module's docstring)."""
        stored = await self.h._store.last_turns(debate.id, 10_000)
        shown = {
            t.number: t
            for kind, t in self.room.posted
            if kind == "turn" and isinstance(t, Turn) and t.debate_id == debate.id
        }
        given: dict[int, list[str]] = {}
        for d, number, text in debaters.asked:
            if d == debate.id:
                given.setdefault(number, []).append(text)
        for turn in stored:
            n = turn.number
            if self.room.turn_posts[(debate.id, n)] != 1:
                self.violation(
                    index, world, f"turn {n} posted {self.room.turn_posts[(debate.id, n)]} times"
                )
            if n not in shown or shown[n].text != turn.text:
                self.violation(index, world, f"turn {n} was not shown whole")
            if self.wiki.keys[f"{debate.id}:round-log:{n}"] != 1:
                self.violation(index, world, f"turn {n} is not in the Round-Log once")
            texts = given.get(n, [])
            if turn.text not in texts:
                self.violation(index, world, f"turn {n} holds text no debater gave")
                continue
            if texts[texts.index(turn.text) + 1 :]:
                self.violation(index, world, f"turn {n} was asked again after it was stored")
            self.tally.paid_repeats += sum(1 for text in texts if text and text != turn.text)
        unstored = {n for (d, n), count in self.room.turn_posts.items() if d == debate.id}
        if unstored - {t.number for t in stored}:
            self.violation(index, world, f"posted turns that were never stored: {sorted(unstored)}")

    def violation(self, index: int, world: World, what: str) -> None:
        self.tally.violations.append(
            {"seed": self.seed, "debate": index, "what": what, "last_calls": world.log[-5:]}
        )

    @property
    def h(self) -> DebateHandler:
        assert self.handler is not None
        return self.handler


def summary(tally: Tally, seconds: float) -> dict[str, Any]:
    """The run's figures as one JSON object."""
    return {
        "debates": tally.debates,
        "formats": len(tally.formats),
        "by_format": dict(sorted(tally.formats.items())),
        "outcomes": dict(sorted(tally.outcomes.items())),
        "crashes_injected": tally.crashes,
        "faults_injected": tally.faults,
        "paid_repeats": tally.paid_repeats,
        "outsider_events_refused": tally.refused,
        "violations": len(tally.violations),
        "first_violations": tally.violations[:10],
        "seconds": round(seconds, 1),
    }


async def simulate(seed: int, debates: int, only: int | None = None) -> dict[str, Any]:
    """Run the simulation; its figures."""
    tally = Tally()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        target = os.environ.get("DATABASE_URL") or str(Path(folder) / "sim.sqlite3")
        await Simulation(seed, target, tally).run(debates, only)
    return summary(tally, time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--debates", type=int, default=200)
    parser.add_argument("--only", type=int, help="replay this one debate of the seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the injected failures are logged as errors
    figures = asyncio.run(simulate(args.seed, args.debates, args.only))
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
