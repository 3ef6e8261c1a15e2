"""Cards per 1,000 messages, the share of marked open decisions that got one, and how well the
detection probability is calibrated, on the recorded busy channel.

The real pipeline runs: DetectionHandler (window, pre-filter, throttling), the threshold read
from a server's stored `/debate config` (ServerSettings on a real SQLite file), the
GeminiDecisionScorer and the GeminiModerator on the real google-genai SDK. By default the SDK
talks to the fake Gemini on 127.0.0.1, whose Decisions answer is a deterministic stand-in that
reads the chat's words (tests/fakes/gemini_answers.py: decision_probability), not a model: the
figures then measure the pipeline and the marks, not Gemini's judgement. `--real` (with
GEMINI_API_KEY set) sends the same requests to the Gemini API instead: the figures are then
Gemini's. One card waits per channel at a time, as in the bot: until it expires
(PROPOSAL_TTL_MINUTES: nobody answers it, the default) or `--card-wait-minutes` after it was
posted (people answer it, Open or Not now, that soon).

A card counts for an open decision when it is proposed between the decision's first marked
message and GRACE_MESSAGES after its last; any other card is one nobody wanted. A judged
window is labelled open (1) when its newest message lies in such a stretch, else 0.

Run: .venv/bin/python bench/detection.py [--thresholds 0.3,0.5,0.7,0.9] [--real] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from google import genai
from google.genai import types

from bot.settings import Settings
from handlers.core.i18n import Strings
from handlers.core.model import ChatLine
from handlers.core.server_config import ServerConfig
from handlers.detection import DetectionHandler, DetectionLimits, Verdict
from handlers.rules_moderator import RulesModerator
from tests.fakes.fake_gemini import FakeGemini
from tools.gemini.api import GeminiApiBackend
from tools.gemini.core import GeminiModerator
from tools.gemini.decisions import GeminiDecisionScorer, make_decisions_client
from tools.store.db import Database
from tools.store.quota import ModeratorQuota
from tools.store.server_settings import ServerSettings

DATA = Path(__file__).resolve().parent / "data"
T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
GUILD, CHANNEL = 1, 1
GRACE_MESSAGES = 10  # people still talk a decision over just after its last marked line
BINS = 5


@dataclass
class Run:
    """One pass over the channel at one threshold."""

    threshold: float
    cards: list[int] = field(default_factory=list)  # the message index each card came at
    verdicts: list[tuple[int, Verdict]] = field(default_factory=list)
    moderator_requests: int = 0
    decision_requests: int = 0


class _Clock:
    at = T0

    def now(self) -> datetime:
        return self.at

    async def sleep(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


async def _no_wait(seconds: float) -> None:
    del seconds  # retry waits are not part of what is measured


def _clients(real: bool, url: str) -> tuple[genai.Client, genai.Client]:
    """The moderator's client and the Decisions client: the API's, or the fake's."""
    key = os.environ.get("GEMINI_API_KEY", "") if real else "bench"
    base = None if real else url
    options = types.HttpOptions(base_url=base, api_version="v1beta", timeout=60_000)
    return genai.Client(api_key=key, http_options=options), make_decisions_client(
        key, 60.0, base_url=base or ""
    )


async def run_once(
    messages: list[dict[str, Any]],
    threshold: float,
    db: Database,
    real: bool,
    settings: Settings,
    card_wait: timedelta,
) -> Run:
    """The channel through the real pipeline, the server's threshold stored as `/debate config`
    stores it."""
    fake = await FakeGemini(auto=True).start()
    moderator_client, decisions_client = _clients(real, fake.url)
    quota = ModeratorQuota(db, 1_000_000)
    moderator = GeminiModerator(
        GeminiApiBackend(moderator_client, settings.GEMINI_MODEL, 60),
        quota,
        language="ko",
        sleep=_no_wait,
        rules=RulesModerator(Strings("ko")),
    )
    scorer = GeminiDecisionScorer(decisions_client, settings.DETECT_DECISION_MODEL, quota, 60)
    configs = ServerSettings(db)
    await configs.store(GUILD, 0, ServerConfig(threshold=f"{threshold:g}"))
    clock, run, index = _Clock(), Run(threshold), [0]
    waiting_until = [T0]  # one card waits per channel

    async def has_open_topic(channel_id: int, topic: str) -> bool:
        return clock.at < waiting_until[0]

    async def threshold_of(guild_id: int, channel_id: int) -> float | None:
        return (await configs.lookup(guild_id, channel_id)).detection_threshold()

    handler = DetectionHandler(
        moderator,
        channels=(CHANNEL,),
        bot_user_id=999,
        limits=DetectionLimits(
            settings.DETECT_COOLDOWN_SECONDS,
            settings.DETECT_MIN_NEW_MESSAGES,
            settings.DETECT_MIN_CONFIDENCE,
        ),
        clock=clock,
        has_open_topic=has_open_topic,
        scorer=scorer,
        threshold_of=threshold_of,
        heard=lambda verdict: run.verdicts.append((index[0], verdict)),
    )
    try:
        for n, message in enumerate(messages):
            index[0], clock.at = n, T0 + timedelta(seconds=float(message["t"]))
            author, name, text = int(message["author"]), str(message["name"]), str(message["text"])
            line = ChatLine(author, name, text, clock.at, message_id=n + 1)
            found = await handler.on_message(CHANNEL, line, bool(message["bot"]), GUILD)
            if found is not None:
                run.cards.append(n)
                waiting_until[0] = clock.at + card_wait
    finally:
        await moderator.aclose()
        await scorer.aclose()
        await fake.stop()
    run.moderator_requests, run.decision_requests = handler.requests, handler.scored
    return run


def open_spans(marks: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Each marked open decision's stretch, with its grace after the last line."""
    return [
        (int(m["first"]), int(m["last"]) + GRACE_MESSAGES) for m in marks if m["kind"] == "open"
    ]


def figures(run: Run, spans: list[tuple[int, int]], total: int) -> dict[str, Any]:
    """Cards per 1,000 messages, decisions found, cards nobody wanted, Brier score."""
    found = {i for i, (a, b) in enumerate(spans) for card in run.cards if a <= card <= b}
    unwanted = [c for c in run.cards if not any(a <= c <= b for a, b in spans)]
    scored = [(n, v.probability) for n, v in run.verdicts if v.probability is not None]
    labels = [(p, 1.0 if any(a <= n <= b for a, b in spans) else 0.0) for n, p in scored]
    brier = sum((p - y) ** 2 for p, y in labels) / len(labels) if labels else None
    return {
        "threshold": run.threshold,
        "cards": len(run.cards),
        "cards_per_1000_messages": round(len(run.cards) * 1000 / total, 2),
        "decisions_found": len(found),
        "decisions_marked": len(spans),
        "decisions_found_share": round(len(found) / len(spans), 3) if spans else None,
        "unwanted_cards": len(unwanted),
        "judged_windows": len(run.verdicts),
        "decision_requests": run.decision_requests,
        "moderator_requests": run.moderator_requests,
        "brier": round(brier, 4) if brier is not None else None,
        "reliability": reliability(labels),
    }


def reliability(labels: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """Per probability bin: how many windows, their mean probability, how many were open."""
    out = []
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [(p, y) for p, y in labels if low <= p < high or (b == BINS - 1 and p == 1.0)]
        if inside:
            mean = sum(p for p, _ in inside) / len(inside)
            rate = sum(y for _, y in inside) / len(inside)
            out.append(
                {
                    "bin": f"{low:.1f}-{high:.1f}",
                    "n": len(inside),
                    "mean_p": round(mean, 3),
                    "open_rate": round(rate, 3),
                }
            )
    return out


async def measure(
    thresholds: list[float], real: bool, card_wait_minutes: float | None = None
) -> dict[str, Any]:
    """Every threshold's figures; the default's calibration."""
    settings = Settings(_env_file=None)
    messages = [
        json.loads(x) for x in (DATA / "busy_channel.jsonl").read_text("utf-8").splitlines()
    ]
    spans = open_spans(json.loads((DATA / "busy_channel_marks.json").read_text("utf-8")))
    default = settings.DETECT_MIN_CONFIDENCE
    wait = settings.PROPOSAL_TTL_MINUTES if card_wait_minutes is None else card_wait_minutes
    results = []
    for threshold in sorted({*thresholds, default}):
        with tempfile.TemporaryDirectory() as folder:
            db = await Database.open(str(Path(folder) / "bench.sqlite3"))
            try:
                run = await run_once(
                    messages, threshold, db, real, settings, timedelta(minutes=wait)
                )
            finally:
                await db.close()
        results.append(figures(run, spans, len(messages)))
    at_default = next(r for r in results if r["threshold"] == default)
    return {
        "scorer": "gemini (--real)" if real else "fake Gemini stand-in (word cues, not a model)",
        "messages": len(messages),
        "card_wait_minutes": wait,
        "default_threshold": default,
        "cards_per_1000_messages": at_default["cards_per_1000_messages"],
        "decisions_found_share": at_default["decisions_found_share"],
        "unwanted_cards": at_default["unwanted_cards"],
        "brier": at_default["brier"],
        "reliability": at_default["reliability"],
        "by_threshold": results,
    }


def show(result: dict[str, Any]) -> None:
    """The table a person reads."""
    print(f"busy channel: {result['messages']} messages; probability from {result['scorer']}")
    print(f"a card holds its channel {result['card_wait_minutes']:g} minutes (one waits at a time)")
    print(
        "threshold  cards/1000 msgs  decisions found  unwanted cards  Decisions req.  moderator req"
    )
    for r in result["by_threshold"]:
        mark = " (default)" if r["threshold"] == result["default_threshold"] else ""
        print(
            f"{r['threshold']:<9g}  {r['cards_per_1000_messages']:>15}  "
            f"{r['decisions_found']:>2}/{r['decisions_marked']} ({r['decisions_found_share']:.0%})"
            f"  {r['unwanted_cards']:>14}  {r['decision_requests']:>14}  "
            f"{r['moderator_requests']:>14}{mark}"
        )
    print(f"calibration at the default threshold: Brier score {result['brier']}")
    for b in result["reliability"]:
        print(f"  p in {b['bin']}: {b['n']} windows, mean p {b['mean_p']}, open {b['open_rate']}")


def main() -> None:
    """Print the table (and, with --json, the figures as one JSON object last)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thresholds", default="0.3,0.5,0.7,0.9", help="comma-separated, 0 to 1")
    parser.add_argument("--real", action="store_true", help="the Gemini API (GEMINI_API_KEY)")
    parser.add_argument(
        "--card-wait-minutes",
        type=float,
        default=None,
        help="how long a card holds its channel (default: PROPOSAL_TTL_MINUTES, nobody answers)",
    )
    parser.add_argument("--json", action="store_true", help="end with the figures as JSON")
    args = parser.parse_args()
    if args.real and not os.environ.get("GEMINI_API_KEY"):
        parser.error("--real needs GEMINI_API_KEY in the environment")
    thresholds = [float(t) for t in args.thresholds.split(",") if t.strip()]
    result = asyncio.run(measure(thresholds, args.real, args.card_wait_minutes))
    show(result)
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
