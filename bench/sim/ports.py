"""The simulated outside world at the engine's ports: the store (it may die or go away around
a write), the room and the wiki (they fail, throttle, hang, or act and lose their answer),
the debaters (they answer in each format's layout, in hostile shapes, or fail; Claude's
limits come through the real CLI output parser) and the moderator's model (behind the real
GeminiModerator, so its validation meets malformed and huge answers)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Protocol

from bench.sim.world import PortFault, Throttled, World
from handlers.core.effects import Effect, RoomEffect, WikiEffect
from handlers.core.model import Backend, Debate, FailureKind, Participant, Turn, TurnMeta
from handlers.core.moderation.bounds import ANSWER_CHARS
from handlers.ports import NOTHING, Clock, DebaterError, DebaterOutput, Loaded, TurnRequest
from tests.fakes.gemini_answers import make_value, rule_task
from tests.handlers import adversarial_script, boardroom_script
from tests.handlers.doubles import FakeRoom, FakeWiki, reply
from tools.claude.output import classify
from tools.gemini.context import Prompt
from tools.gemini.core import ModelReply, ModeratorRateLimited, ModeratorUnavailable
from tools.store.db import Database
from tools.store.debates import SqliteStore


class Sim(Protocol):
    """What the doubles ask of the run."""

    def world_of(self, debate_id: int) -> World:
        """The debate's world."""

    def world_in(self, text: str) -> World:
        """The world of the debate a prompt is about."""

    def member(self, debate_id: int, seat: str) -> Participant:
        """A seat of the debate's roster."""

    def format_of(self, debate_id: int) -> str:
        """The debate's format."""

    def answered(self, debate_id: int, turn: int, text: str) -> None:
        """A debater answered ("": its ask failed); an answer is paid for."""

    def meanwhile(self, debate_id: int) -> None:
        """The people act on the debate while an answer is being handed over."""


async def outside_call(world: World, name: str, key: object, clock: Clock) -> None:
    """A call to Discord or the wiki, before it acts: it may fail, be throttled, be slow, or
    hang until its own timeout."""
    kind, seconds = world.outside(name, key)
    if kind == "fail":
        raise PortFault(f"{name}: 500")
    if kind == "throttled":
        raise Throttled(name, seconds)
    if kind in ("slow", "hang"):
        await clock.sleep(seconds)
    if kind == "hang":
        raise PortFault(f"{name}: no answer within {seconds:.0f} s")


class SimStore(SqliteStore):
    """The real store; around a committed step the process may die or lose the database."""

    def __init__(self, db: Database, sim: Sim) -> None:
        super().__init__(db)
        self.sim = sim

    async def save_step(
        self, debate: Debate, effects: Sequence[Effect], turn: Turn | None, *a: Any, **kw: Any
    ) -> None:
        world = self.sim.world_of(debate.id)
        key = f"{debate.phase}:{debate.floor.turns}:{len(effects)}"
        world.store("save", key)
        await super().save_step(debate, effects, turn, *a, **kw)
        world.tick("stored", key)
        world.store("save", key, after=True)


class SimRoom:
    """The room's records (FakeRoom, keyed as the real room posts once) behind the world's
    faults; it also notes each debate's last status and when its end was shown."""

    def __init__(self, sim: Sim, clock: Clock) -> None:
        self.sim, self.clock = sim, clock
        self.inner = FakeRoom()
        self.seq = 0
        self.ended_at: dict[int, int] = {}  # debate -> the sequence number of its end's post
        self.last_status: dict[int, str] = {}  # debate -> the phase its status last showed
        self.shown: list[tuple[int, RoomEffect]] = []

    async def show(self, debate: Debate, effect: RoomEffect, loaded: Loaded = NOTHING) -> str:
        world, name = self.sim.world_of(debate.id), f"room:{effect.kind}"
        key = f"{debate.phase}:{debate.floor.turns}"
        await outside_call(world, name, key, self.clock)
        link = await self.inner.show(debate, effect, loaded)
        self.seq += 1
        self.shown.append((debate.id, effect))
        if effect.kind == "update_status":
            self.last_status[debate.id] = debate.phase.value
        if effect.kind in ("post_conclusion", "post_summary"):
            self.ended_at.setdefault(debate.id, self.seq)
        world.acted(name, key)
        return link

    async def votes(self, debate: Debate) -> tuple[int, ...] | None:
        world = self.sim.world_of(debate.id)
        await outside_call(world, "room:votes", debate.floor.turns, self.clock)
        counts = await self.inner.votes(debate)
        world.acted("room:votes", debate.floor.turns)
        return counts

    def working(self, debate: Debate, seat: str) -> Any:
        return self.inner.working(debate, seat)


class SimWiki:
    """The wiki's records (FakeWiki, keyed as the outbox writes once) behind the world's
    faults; it notes the room's sequence number of every write that landed."""

    def __init__(self, sim: Sim, clock: Clock, room: SimRoom) -> None:
        self.sim, self.clock, self.room = sim, clock, room
        self.inner = FakeWiki()
        self.landed: list[tuple[int, str, int]] = []  # (debate, key, room sequence)

    async def write(self, debate: Debate, effect: WikiEffect, loaded: Loaded = NOTHING) -> None:
        world, name = self.sim.world_of(debate.id), f"wiki:{effect.kind}"
        key = f"{debate.phase}:{debate.floor.turns}"
        await outside_call(world, name, key, self.clock)
        before = len(self.inner.writes)
        await self.inner.write(debate, effect, loaded)
        for written, debate_id, _ in self.inner.writes[before:]:
            self.landed.append((debate_id, written, self.room.seq))
        world.acted(name, key)

    def page_url(self, debate: Debate, page: str) -> str:
        return self.inner.page_url(debate, page)


HOSTILE = (
    lambda rng: "[" * 1000 + "]" * 1000,
    lambda rng: "{" + '"a":{' * 800 + "}" * 801,
    lambda rng: "x" * rng.randint(100_000, 300_000),
    lambda rng: "```json\n" + '{"opinion": 5, "stance": ["agree"]}' + "\n```",
    lambda rng: '{"vote": "no"} 1. VOTE: YES ' + "E1 | supports | " * 300,
    lambda rng: "\u200b\u202e\ufeff" + "한국어 " * 500 + "\x00\ud800",
    lambda rng: "KNOWN_GAPS: " + "| " * 2000,
    lambda rng: "[debate 1 · turn 3] " + reply("echoed tag", "agree"),
)
RETRY_AFTER = (None, 1.0, 30.0, -5.0, 1e12, float("nan"), float("inf"))


class SimDebater:
    """Every seat's debater: answers in its format's layout, in hostile shapes, or fails;
    Claude's seats meet their usage limits as the real CLI reports them."""

    backend = Backend.CLAUDE_CLI  # every backend is served by this one double

    def __init__(self, sim: Sim, clock: Clock) -> None:
        self.sim, self.clock = sim, clock

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        world, seat = self.sim.world_of(request.debate_id), request.participant
        world.tick(f"speak:{seat}", request.turn)
        await asyncio.sleep(0)  # the turn is being written: a Stop may end it here
        rng = world.rng(f"answer:{seat}", request.turn)
        roll = rng.random()
        claude = self.sim.member(request.debate_id, seat).backend is Backend.CLAUDE_CLI
        if claude and (world.always_limited or roll < 0.04):
            self.sim.answered(request.debate_id, request.turn, "")
            raise claude_limit(rng, self.clock.now().timestamp())
        if roll < 0.10:
            self.sim.answered(request.debate_id, request.turn, "")
            kind = rng.choice([k for k in FailureKind if k is not FailureKind.LIMIT])
            raise DebaterError(kind, "simulated", rng.choice(RETRY_AFTER))
        if roll < 0.15:
            self.sim.meanwhile(request.debate_id)  # the people act as the answer comes in
        asked = world.counts[(f"answer:{seat}", str(request.turn))]  # which ask of the turn
        mark = f"<!-- answer {request.debate_id}:{request.turn}:{asked} -->"
        text = f"{self._text(request, rng)}\n\n{mark}"
        cost = rng.choice([0.01] * 30 + [float("inf"), float("nan"), -1.0])
        meta = TurnMeta(model="sim", input_tokens=10, output_tokens=20, cost_usd=cost)
        self.sim.answered(request.debate_id, request.turn, text)
        return DebaterOutput(text=text, raw=f"RAW<{text}>", meta=meta)

    def _text(self, request: TurnRequest, rng: Any) -> str:
        who, fmt = request.participant, self.sim.format_of(request.debate_id)
        if rng.random() < 0.12:
            return str(rng.choice(HOSTILE)(rng))
        vote = rng.choice(["yes", "no", "conditional"])
        if fmt == "boardroom":
            lang = rng.choice(["ko", "pt-BR", "en"])
            if request.round <= 1:
                return boardroom_script.position(who, vote, lang)
            return boardroom_script.rebuttal(who, vote, lang)
        if fmt == "adversarial":
            return str(
                rng.choice(
                    [
                        adversarial_script.advocate(),
                        adversarial_script.challenger(),
                        adversarial_script.reconciler(),
                        adversarial_script.validator(),
                    ]
                )
            )
        stance = rng.choice(["agree", "partial", "disagree", "AGREE"])
        return reply(f"{who} on turn {request.turn}: {rng.random():.6f}", stance)

    async def forget(self, debate_id: int) -> None:
        self.sim.world_of(debate_id).tick("forget")


def claude_limit(rng: Any, now: float) -> DebaterError:
    """A usage limit (its reset soon, past, in milliseconds, past the calendar, or absent) or
    a refusal nothing clears, as the real CLI prints it, read by the real parser."""
    if rng.random() < 0.15:
        words = "API Error: Request rejected (429) · Your organization is out of usage credits."
        line = {"type": "result", "is_error": True, "api_error_status": 429, "result": words}
        _, failure = classify(1, json.dumps(line), "", now)
    else:
        soon, past, milliseconds = now + rng.uniform(60, 18_000), now - 600, (now + 3600) * 1000
        resets = int(rng.choice([soon, past, milliseconds, 253_402_300_810, 0]))
        info = {"status": "rejected", "resetsAt": resets, "rateLimitType": "five_hour"}
        said = {"type": "assistant", "is_api_error_message": True, "error": "rate_limit"}
        said |= {"api_error_params": {"rate_limit_info": info}}
        result = {"type": "result", "subtype": "success", "is_error": True}
        result |= {"api_error_status": 429, "api_error": "usage_limit_reached"}
        result |= {"result": "You've hit your 5-hour limit"}
        _, failure = classify(1, f"{json.dumps(said)}\n{json.dumps(result)}", "", now)
    assert failure is not None
    return failure


class SimGemini:
    """The moderator's model behind the real GeminiModerator: out, throttled, malformed, too
    large, or a valid answer in the asked schema (its action, question and options drawn)."""

    model = "sim-flash"

    def __init__(self, sim: Sim) -> None:
        self.sim = sim

    async def generate(self, prompt: Prompt) -> ModelReply:
        text = "\n".join(part for _, part in prompt.messages)
        world = self.sim.world_in(text)
        world.tick(f"moderator:{prompt.purpose}")
        await asyncio.sleep(0)
        rng = world.rng(f"moderator:{prompt.purpose}", len(prompt.messages))
        roll = rng.random()
        if roll < 0.08:
            raise ModeratorUnavailable("simulated: timeout or 500")
        if roll < 0.11:
            raise ModeratorRateLimited("429", rng.choice([None, 2.0, 1e9]), per_day=False)
        if roll < 0.19:
            return ModelReply(str(rng.choice(HOSTILE)(rng)))
        if roll < 0.22:
            return ModelReply(json.dumps({"summary": "s" * (ANSWER_CHARS + 10)}))
        return ModelReply(self._valid(prompt, text, rng))

    def _valid(self, prompt: Prompt, text: str, rng: Any) -> str:
        schema = prompt.schema
        if schema is None:
            if prompt.json:
                return "{}"
            probe = adversarial_script.probe("cost-first", rng.random() < 0.5)
            return str(rng.choice([probe, adversarial_script.validator(), "plain text"]))
        if schema.__name__ == "IntakeTaskReply":
            return adversarial_script.intake(rng.randint(0, 4), binary=rng.random() < 0.5)
        made = make_value(schema.model_json_schema(), schema.model_json_schema(), "")
        if isinstance(made, dict):
            rule_task(made, text)
            if "action" in made:
                made |= _judgement(rng)
        return json.dumps(made, ensure_ascii=False)

    async def aclose(self) -> None:
        return None


def _judgement(rng: Any) -> dict[str, Any]:
    """A judgement's drawn fields: continue, redirect, ask the people (now and then at great
    length), or conclude; a consensus estimate."""
    action = rng.choice(["continue"] * 5 + ["redirect", "ask_user", "ask_user", "conclude"])
    made: dict[str, Any] = {"action": action, "consensus": rng.random(), "summary": "so far"}
    made |= {"next_speaker": None, "user_question": None, "user_options": [], "note": ""}
    if action == "redirect":
        made |= {"note": "back to the cache layer", "next_speaker": rng.choice(["ag", "claude"])}
    if action == "ask_user":
        long = rng.random() < 0.2
        made["user_question"] = "Which one? " + ("q" * 150_000 if long else "")
        made["user_options"] = ["Redis", "LRU"] * (100 if long else 1)
    return made
