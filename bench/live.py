"""Benchmark: a Claude reply shown as it is written, on the loopback fakes.

The real `claude` CLI streams a 3,000-character reply from the fake Anthropic API (deltas of
30 characters, 0.1 s apart: about ten seconds of writing); the real ClaudeCodeDebater reads
it and the real DiscordRoom shows it live in the fake Discord's thread, then posts the stored
turn. Measured:

- `first_text_s`: from the CLI's first streamed text (its first text line read by the bot)
  to the first visible text in the thread (the fake Discord storing the live message);
- `api_to_thread_s`: the same from the API sending its first delta (the CLI's own latency in);
- `edits_per_reply`: the live message's sends and edits, plus the edit into the final post;
- `rate_limited`: answers 429 during the run (must be 0).

`--structured`: the turn asks for the JSON reply contract (`--json-schema`), so the reply comes
as the StructuredOutput call's input; its `opinion` is the 3,000 characters (sent as the API
sends a tool's input: partial JSON, here ASCII-escaped, 30 characters a delta). Then
`api_to_thread_s` is the time to the first live character of the opinion in the thread (or, if
nothing is shown live, to the posted turn), and `first_text_s` is empty when nothing was.

Run: .venv/bin/python bench/live.py [--json] [--chars 3000] [--gap-s 0.1] [--structured]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# `tests.fakes` is not installed; run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord.room import DiscordRoom
from handlers.core.i18n import Strings
from handlers.core.model import CLAUDE, Debate, OpenAsk, Phase, Proposal, Setup, Turn
from handlers.core.reply.parser import parse_reply
from handlers.core.reply.schema import REPLY_SCHEMA_JSON
from handlers.ports import TurnRequest
from tests.doubles import FakeClock
from tests.effects import posted
from tests.fakes.discord_fixtures import ListeningClient, start_client, stop_client
from tests.fakes.discord_loopback import redirected
from tests.fakes.discord_spec import report
from tests.fakes.fake_anthropic import FakeAnthropic, find_claude_bin
from tests.fakes.fake_discord import FakeDiscord
from tools.claude.debater import ClaudeCodeDebater
from tools.store.db import Database
from tools.store.proposals import Proposals
from tools.store.room_messages import RoomMessages
from tools.store.sessions import AgentSessions

FIELDS = ("first_text_s", "api_to_thread_s", "edits_per_reply", "rate_limited")
REPLY_CHARS, CHUNK, GAP_S = 3000, 30, 0.1
POST = ("POST", "/channels/{channel_id}/messages")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")


def reply_text(chars: int = REPLY_CHARS) -> str:
    """About `chars` characters of Korean and English prose, then the contract's JSON block."""
    line = "캐시 계층은 LRU로 시작하고, 인스턴스가 셋을 넘으면 Redis로 옮긴다 (ops cost). "
    block = '\n```json\n{"opinion": "LRU first", "stance": "partial"}\n```'
    return (line * (chars // len(line) + 1))[: max(0, chars - len(block))] + block


def debate_in(channel_id: int) -> Debate:
    """A running debate asking Claude for turn 1."""
    proposal = Proposal(
        channel_id=channel_id,
        topic="캐시 계층",
        question="q",
        reason="bench",
        confidence=0.9,
        context="",
        people_ids=(1,),
    )
    now = datetime.now(UTC)
    debate = Debate(id=1, proposal=proposal, phase=Phase.SPEAKING, created_at=now, setup=Setup(3))
    return replace(debate, floor=replace(debate.floor, asked=(OpenAsk(CLAUDE, 1),), speaker=CLAUDE))


async def run(
    tmp: Path, chars: int = REPLY_CHARS, gap_s: float = GAP_S, structured: bool = False
) -> dict[str, Any]:
    """One streamed reply, shown live and then posted; the figures."""
    binary = find_claude_bin()
    if binary is None:
        raise SystemExit("claude CLI not found (set CLAUDE_BIN or run bash .ci/run)")
    fake = await FakeDiscord().start()
    api = FakeAnthropic().start()
    first_delta: list[float] = []
    api.on_delta = lambda _n, _text: first_delta.append(time.perf_counter())
    api.stream_chunk, api.stream_gap_s = CHUNK, gap_s
    text = reply_text(chars)
    if structured:  # the same words, as the opinion of the contract's object
        text = text.split("\n```json", 1)[0]
        api.script_replies(json.dumps({"opinion": text, "stance": "partial"}))
    else:
        api.script_replies(text)
    db = await Database.open(str(tmp / "live.sqlite3"))
    try:
        with redirected(fake.api_base, fake.gateway_url):
            client = ListeningClient()
            task = await start_client(client, fake.token)
            try:
                return await _one_reply(
                    fake, api, db, client, binary, tmp, text, first_delta, structured
                )
            finally:
                await stop_client(client, task)
    finally:
        await db.close()
        api.stop()
        await fake.stop()
        report(fake.contract.checked, [str(v) for v in fake.contract.unexpected()])


async def _one_reply(
    fake: FakeDiscord,
    api: FakeAnthropic,
    db: Database,
    client: ListeningClient,
    binary: Path,
    tmp: Path,
    text: str,
    first_delta: list[float],
    structured: bool = False,
) -> dict[str, Any]:
    debater = ClaudeCodeDebater(
        AgentSessions(db, CLAUDE),
        binary=str(binary),
        system_prompt="bench",
        model=None,
        tools="Read",
        timeout_s=120,
        max_retries=0,
        max_concurrency=1,
        workdir_root=tmp / "data",
        env=api.cli_env(tmp / "claude-config"),
        keep_api_key=True,
        structured=structured,
    )
    await db.execute(
        "INSERT INTO debates (id, channel_id, topic, phase, state, created_at, updated_at)"
        " VALUES (1, ?, 'bench', 'speaking', '{}', '', '')",
        (int(fake.text_channel["id"]),),
    )
    strings = Strings("ko")
    room = DiscordRoom(client, RoomMessages(db), Proposals(db), strings, FakeClock())
    debate = debate_in(int(fake.text_channel["id"]))
    working = room.working(debate, CLAUDE)
    first_read: list[float] = []

    def on_text(so_far: str) -> None:
        first_read.append(time.perf_counter())
        working.show_text(so_far)

    schema = REPLY_SCHEMA_JSON if structured else ""
    request = TurnRequest(
        debate_id=1, turn=1, round=1, prompt="go", on_text=on_text, reply_schema=schema
    )
    async with working:
        output = await debater.speak(request)
    turn = Turn(
        debate_id=1,
        number=1,
        round=1,
        seat=CLAUDE,
        text=output.text,
        raw=output.raw,
        sha256=hashlib.sha256(output.raw.encode()).hexdigest(),
        parsed=parse_reply(output.text),
        meta=output.meta,
        at=datetime.now(UTC),
    )
    await room.show(debate, *posted(turn))
    if structured:
        assert turn.parsed.opinion == text, "the stored opinion is the streamed one, whole"
    else:
        assert output.text == text, "the stored reply is the streamed one, whole"
    shown = fake.calls_to(*POST)[0].at  # the live message (else the turn): the first post
    return {
        "first_text_s": round(shown - first_read[0], 3) if first_read else None,
        "api_to_thread_s": round(shown - first_delta[0], 3),
        # the live message's send and edits, and the final edit: every write the thread saw
        "edits_per_reply": len(fake.calls_to(*POST)) + len(fake.calls_to(*EDIT)),
        "rate_limited": sum(1 for c in fake.calls if c.status == 429),
        "reply_chars": len(text),
        "deltas": len(first_delta),
        "rest_calls": {f"{m} {r}": len(fake.calls_to(m, r)) for m, r in (POST, EDIT)},
    }


def main() -> None:
    """Run once; print the figures, or one JSON object of exactly FIELDS with --json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--chars", type=int, default=REPLY_CHARS, help="the reply's length")
    parser.add_argument("--gap-s", type=float, default=GAP_S, help="seconds between deltas")
    parser.add_argument("--structured", action="store_true", help="ask for the JSON contract")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = asyncio.run(run(Path(tmp), args.chars, args.gap_s, args.structured))
    if args.json:
        print(json.dumps({key: figures[key] for key in FIELDS}))
        return
    for key, value in figures.items():
        print(f"{key:>16}: {value}")


if __name__ == "__main__":
    main()
