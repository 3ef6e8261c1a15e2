"""Benchmark: what the moderator reads, against AutoGen's SelectorGroupChat on the same debate.

A recorded 40-turn debate (bench/data/debate_40_turns.jsonl) is replayed through the real
engine rules (handlers.core.state_machine) and the real GeminiModerator talking to the loopback
fake Gemini; each request's billed input is counted in characters (characters / 4 = tokens):
the system instruction, the contents and the response schema, all of which Gemini bills. The same
transcript is replayed through autogen-agentchat's SelectorGroupChat with a recording model
client. A busy channel's 1,000 messages (bench/data/busy_channel.jsonl) go through the real
DetectionHandler with the default throttling. The brief the last turn's debater receives is
composed as the engine composes it, and its own words (the relayed reply aside) are counted.

Run: .venv/bin/python bench/moderator_cost.py [--json]
     (autogen-agentchat and autogen-core are the `bench` extra)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
from collections import deque
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# `tests.fakes` is not installed; run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from google import genai
from google.genai import types
from moderator_cost_autogen import autogen  # bench/ is on sys.path when run

from bot.root.engine import detection_limits
from bot.settings import Settings
from handlers.core.effects import AskDebater, Conclude, Judge
from handlers.core.events import ConclusionReady, Judged, ProposalApproved, ReplyReceived
from handlers.core.i18n import Strings
from handlers.core.model import (
    AG,
    Actor,
    ChatLine,
    Debate,
    ModeratorView,
    Phase,
    Proposal,
    Setup,
    Turn,
    TurnMeta,
)
from handlers.core.state_machine import transition
from handlers.detection import DetectionHandler
from handlers.prompting import compose_turn_prompt
from handlers.rules_moderator import RulesModerator
from tests.fakes.fake_gemini import FakeGemini
from tests.fakes.gemini_answers import rule_answer
from tools.gemini.api import GeminiApiBackend
from tools.gemini.core import GeminiModerator
from tools.store.db import Database
from tools.store.quota import ModeratorQuota

DATA = Path(__file__).resolve().parent / "data"
T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
FIELDS = (
    "turn4_input_tokens",
    "turn40_input_tokens",
    "growth_ratio",
    "ours_cumulative_tokens",
    "autogen_cumulative_tokens",
    "cumulative_ratio",
    "requests_per_turn",
    "detection_requests_per_1000_messages",
    "brief_overhead_chars_turn40",
)
PROPOSAL = Proposal(
    channel_id=1,
    topic="캐시 계층 선택 — Redis vs in-process LRU",
    question="다음 분기 배포에서 어떤 캐시 계층을 쓸 것인가?",
    reason="멀티 인스턴스 운영의 일관성과 운영 부담 사이의 결정이 열려 있다.",
    confidence=0.9,
    context="alice: 캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네\n"
    "carol: 멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이…",
    people_ids=(101, 102),
)
_SUMMARY = re.compile(r"# Running summary\n(.*?)\n\n# (?:Newest turn|Latest turns)", re.DOTALL)
_TURN = re.compile(r"^## Turn (\d+)[^\n]*\n", re.MULTILINE)


def load_jsonl(name: str) -> list[dict[str, Any]]:
    """One recorded file."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def summarising_responder(schema: dict[str, Any], text: str) -> dict[str, Any] | None:
    """A stand-in for the model's memory: the previous summary plus ~300 characters per turn,
    never trimmed, so only the moderator's own cap keeps it bounded (the worst case)."""
    answer = rule_answer(schema, text)
    if "summary" not in answer:
        return None
    found = _SUMMARY.search(text)
    previous = found.group(1).strip() if found and found.group(1).strip() != "-" else ""
    heads = list(_TURN.finditer(text))
    body = " ".join(text[heads[-1].end() :].split()) if heads else "-"
    line = f"T{heads[-1].group(1) if heads else '?'}: {body[:290]}"
    answer.update(action="continue", summary=f"{previous}\n{line}".strip())
    return answer


def topic_responder(schema: dict[str, Any], text: str) -> dict[str, Any] | None:
    """Detection answers whose topic follows the chat (the last line), as a model's would."""
    answer = rule_answer(schema, text)
    if answer.get("debate_worthy"):
        last = [line for line in text.splitlines() if ": " in line][-1:]
        answer["topic"] = last[0].split(": ", 1)[1][:40] if last else "topic"
    return answer


async def _no_wait(seconds: float) -> None:
    del seconds  # retry waits are not part of what is measured


def _moderator(fake: FakeGemini, db: Database) -> GeminiModerator:
    """The real GeminiModerator on the real SDK, pointed at the fake."""
    options = types.HttpOptions(base_url=fake.url, api_version="v1beta")
    client = genai.Client(api_key="bench", http_options=options)
    return GeminiModerator(
        GeminiApiBackend(client, "gemini-flash-latest", 30),
        ModeratorQuota(db, 100_000),
        language="ko",
        sleep=_no_wait,
        rules=RulesModerator(Strings("ko")),
    )


async def ours(turns: list[dict[str, Any]], db: Database) -> tuple[list[int], int, int]:
    """Replay through the state machine and GeminiModerator; input tokens of each request,
    the number of requests, and the brief overhead of the last turn."""
    fake = await FakeGemini(auto=True, responder=summarising_responder).start()
    moderator = _moderator(fake, db)
    try:
        overhead = await _replay(moderator, [str(t["text"]) for t in turns])
    finally:
        await moderator.aclose()
        await fake.stop()
    per_request = [billed_chars(r) // 4 for r in fake.generate_requests]
    return per_request, len(fake.generate_requests), overhead


def billed_chars(request: Mapping[str, Any]) -> int:
    """The characters of one request that Gemini bills as input: the system instruction and
    the contents (what the fake recorded as `input_chars`) and the response schema, which is
    input too (compact JSON; the SDK's spaces aside)."""
    config = request["json"].get("generationConfig") or {}
    schema = config.get("responseSchema") or config.get("responseJsonSchema")
    sent = json.dumps(schema, ensure_ascii=False, separators=(",", ":")) if schema else ""
    return int(request["input_chars"]) + len(sent)


def brief_overhead(debate: Debate, ask: AskDebater, stored: list[Turn]) -> int:
    """The brief's own characters: the whole text a debater receives, the other debaters'
    replies it carries verbatim aside."""
    shown = tuple(turn for turn in stored if turn.number in ask.shows)
    prompt = compose_turn_prompt(debate, ask, shown, "ko")
    return len(prompt) - sum(len(turn.text) for turn in shown)


async def _replay(moderator: GeminiModerator, texts: list[str]) -> int:
    rng = random.Random(11)
    debate = Debate(
        id=1, proposal=PROPOSAL, phase=Phase.PROPOSED, created_at=T0, setup=Setup(len(texts) // 2)
    )
    step = transition(debate, ProposalApproved(Actor(101, "alice")), T0, rng)
    debate, pending, stored = step.debate, list(step.effects), list[Turn]()
    queue, overhead = deque(texts), 0
    while pending:
        effect = pending.pop(0)
        view = ModeratorView(debate, tuple(stored[-2:]))
        if isinstance(effect, AskDebater) and queue:
            overhead = brief_overhead(debate, effect, stored)  # the last one is kept
            event: Any = ReplyReceived(
                debate.floor.speaker or AG, debate.floor.turns + 1, queue.popleft(), "", TurnMeta()
            )
        elif isinstance(effect, Judge):
            event = Judged(effect.turn, await moderator.judge(view))
        elif isinstance(effect, Conclude):
            event = ConclusionReady(await moderator.conclude(view))
        else:
            continue
        step = transition(debate, event, T0, rng)
        debate = step.debate
        stored += [step.turn] if step.turn is not None else []
        pending.extend(step.effects)
    if len(stored) != len(texts):
        raise RuntimeError(f"the replay stopped after {len(stored)} turns")
    return overhead


async def detection(messages: list[dict[str, Any]], db: Database) -> int:
    """Detect requests per 1,000 messages of the busy channel, with the default throttling."""
    defaults = Settings(_env_file=None)
    fake = await FakeGemini(auto=True, responder=topic_responder).start()
    moderator, clock = _moderator(fake, db), _Clock()
    proposed: set[tuple[int, str]] = set()

    async def has_open_topic(channel: int, topic: str) -> bool:
        return (channel, topic) in proposed

    handler = DetectionHandler(
        moderator,
        channels=(1,),
        bot_user_id=999,
        limits=detection_limits(defaults),
        clock=clock,
        has_open_topic=has_open_topic,
    )
    try:
        for n, message in enumerate(messages):
            clock.at = T0 + timedelta(seconds=float(message["t"]))
            author, name, text = int(message["author"]), str(message["name"]), str(message["text"])
            line = ChatLine(author, name, text, clock.at, message_id=n + 1)
            found = await handler.on_message(1, line, bool(message["bot"]))
            if found is not None:
                proposed.add((1, found.topic))
    finally:
        await moderator.aclose()
        await fake.stop()
    return len(fake.generate_requests) * 1000 // len(messages)


class _Clock:
    at = T0

    def now(self) -> datetime:
        return self.at

    async def sleep(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


async def measure() -> dict[str, float | int]:
    """Run all three parts; the figures FIELDS names."""
    turns, messages = load_jsonl("debate_40_turns.jsonl"), load_jsonl("busy_channel.jsonl")
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(str(Path(folder) / "bench.sqlite3"))
        try:
            per_request, requests, overhead = await ours(turns, db)
            detect_rate = await detection(messages, db)
        finally:
            await db.close()
    theirs = await autogen(turns, f"{PROPOSAL.topic}\n{PROPOSAL.question}\n\n{PROPOSAL.context}")
    ours_total, autogen_total = sum(per_request), sum(theirs)
    _extra.update(turn39=per_request[38], largest=max(per_request))
    return {
        "turn4_input_tokens": per_request[3],
        "turn40_input_tokens": per_request[39],
        "growth_ratio": round(per_request[39] / per_request[3], 3),
        "ours_cumulative_tokens": ours_total,
        "autogen_cumulative_tokens": autogen_total,
        "cumulative_ratio": round(ours_total / autogen_total, 3),
        "requests_per_turn": round(requests / len(turns), 3),
        "detection_requests_per_1000_messages": detect_rate,
        "brief_overhead_chars_turn40": overhead,
    }


_extra: dict[str, int] = {}  # for the table's notes, not the JSON
TARGETS = {
    "growth_ratio": 1.3,
    "cumulative_ratio": 0.15,
    "requests_per_turn": 1.0,
    "detection_requests_per_1000_messages": 50,
    "brief_overhead_chars_turn40": 1500,
}


def table(figures: Mapping[str, float | int]) -> str:
    """The readable table, each figure beside its target (TARGETS)."""
    rows = [f"{'figure':<40} {'value':>12}  target"]
    for name in FIELDS:
        target = f"<= {TARGETS[name]}" if name in TARGETS else ""
        verdict = ("ok" if figures[name] <= TARGETS[name] else "MISSED") if target else ""
        rows.append(f"{name:<40} {figures[name]:>12}  {target} {verdict}".rstrip())
    if _extra:
        rows.append(
            f"notes: turn 40's request is the Conclusion (nothing is judged after the last turn);"
            f"\n       turn 39's judgement read {_extra['turn39']} tokens "
            f"({_extra['turn39'] / int(figures['turn4_input_tokens']):.3f} x turn 4), "
            f"the largest request {_extra['largest']}."
        )
    return "\n".join(rows)


def main() -> None:
    """Print the table, or one JSON object with --json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = asyncio.run(measure())
    print(json.dumps(figures) if args.json else table(figures))


if __name__ == "__main__":
    main()
