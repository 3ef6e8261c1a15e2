"""The whole product against every fake: `debate-room` as a subprocess, the fake Discord, the
fake Gemini, the real `claude` CLI on the fake Anthropic API, the fake Wiki.js, and a second
real Discord client playing AG."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from tests.e2e.seen import Seen, button_id
from tests.fakes.discord_fixtures import ListeningClient, start_client, stop_client
from tests.fakes.discord_loopback import redirected, subprocess_env
from tests.fakes.discord_world import Json
from tests.fakes.fake_anthropic import FakeAnthropic, find_claude_bin, processes_with_env
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_gemini import FakeGemini
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs

REPO = Path(__file__).resolve().parents[2]
WAIT = 60.0  # generous: the real CLI takes ~1 s of CPU per turn on 2 shared cores

Reply = str | Callable[[str], str]
CHAT = (
    ("alice", "캐시 계층을 Redis로 갈지 그냥 in-process LRU로 갈지 아직 못 정했네"),
    ("carol", "멀티 인스턴스면 Redis가 맞지 않아? 근데 운영 부담이… 어떻게 할까"),
    ("alice", "둘 다 장단점이 있어서 애매하다. 이번 주 안에 결정해야 해"),
)


class WatchedDiscord(FakeDiscord):
    """The fake Discord, raising `changed` whenever a message is stored or edited."""

    changed: asyncio.Event

    async def store_and_echo(self, message: Json) -> None:
        await super().store_and_echo(message)
        self.changed.set()

    async def apply_edit(self, message: Json, body: Json) -> None:
        await super().apply_edit(message, body)
        self.changed.set()


class WatchedWikiJs(FakeWikiJs):
    """The fake Wiki.js, raising `changed` after every request it answered."""

    changed: asyncio.Event

    async def _graphql(self, request: Any) -> Any:
        try:
            return await super()._graphql(request)
        finally:
            self.changed.set()


def contract(opinion: str, stance: str = "partial", **extra: Any) -> str:
    """A debater reply in the contract: prose, then a ```json block."""
    block = {"opinion": opinion, "stance": stance, **extra}
    return f"정리합니다.\n\n```json\n{json.dumps(block, ensure_ascii=False)}\n```"


@dataclass
class AgSeat:
    """AG: a second real Discord client that answers every prompt that mentions it."""

    client: ListeningClient
    replies: list[Reply] = field(default_factory=list)
    prompts: list[discord.Message] = field(default_factory=list)
    silent_turns: set[int] = field(default_factory=set)
    sent: list[discord.Message] = field(default_factory=list)
    # Called with the turn number before AG answers, and once its answer is sent (a test
    # kills the bot at either moment).
    on_prompted: Callable[[int], Awaitable[None]] | None = None
    on_replied: Callable[[int], Awaitable[None]] | None = None

    async def on_message(self, message: discord.Message) -> None:
        me = self.client.user
        if me is None or me not in message.mentions or "[debate" not in message.content:
            return
        turn = _turn_of(message.content)
        self.prompts.append(message)
        if turn in self.silent_turns:
            self.silent_turns.discard(turn)
            return
        if self.on_prompted is not None:
            await self.on_prompted(turn)
        reply = self.replies.pop(0) if self.replies else contract(f"AG 기본 답변 {turn}")
        text = reply(message.content) if callable(reply) else reply
        self.sent.append(await message.channel.send(text))
        if self.on_replied is not None:
            await self.on_replied(turn)

    def prompted_turns(self) -> list[int]:
        """The turn number of every prompt AG received, in order (a repost shows twice)."""
        return [_turn_of(m.content) for m in self.prompts]


def _turn_of(content: str) -> int:
    return int(content.split("· turn ", 1)[1].split("]", 1)[0])


class World(Seen):
    """Every fake, started; `bot()` launches the product against them."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.changed = asyncio.Event()
        self.discord = WatchedDiscord()
        self.discord.changed = self.changed
        self.gemini = FakeGemini(auto=True)
        self.anthropic = FakeAnthropic()
        self.wiki = WatchedWikiJs()
        self.wiki.changed = self.changed
        self.proc: subprocess.Popen[bytes] | None = None
        self.runs = 0
        self._redirect: contextlib.ExitStack | None = None

    async def start(self) -> World:
        await self.discord.start()
        self._redirect = contextlib.ExitStack()
        self._redirect.enter_context(redirected(self.discord.api_base, self.discord.gateway_url))
        await self.gemini.start()
        self.anthropic.start()
        await self.wiki.start()
        self.alice = self.discord.add_user("alice")
        self.carol = self.discord.add_user("carol")
        self.bob = self.discord.add_user("bob")
        ag_user, token = self.discord.add_bot("AG")
        self.ag = AgSeat(ListeningClient())
        self.ag.client.message_listeners.append(self.ag.on_message)
        self._ag_task = await start_client(self.ag.client, token)
        self.ag_user = ag_user
        return self

    async def stop(self) -> None:
        self.kill()
        (self.tmp / "transcript.txt").write_text(self.transcript(), encoding="utf-8")
        await stop_client(self.ag.client, self._ag_task)
        await self.wiki.stop()
        self.anthropic.stop()
        await self.gemini.stop()
        if self._redirect:
            self._redirect.close()
        await self.discord.stop()
        self.discord.contract.assert_conforms()  # the bot's traffic, against Discord's spec

    def env(self, **overrides: str) -> dict[str, str]:
        claude = find_claude_bin()
        if claude is None:
            raise RuntimeError("the claude CLI is not installed (bash .ci/run installs it)")
        keep = ("PATH", "HOME", "LANG", "SYSTEMROOT", "TMPDIR")
        base = {k: v for k, v in os.environ.items() if k in keep}
        env = subprocess_env(self.discord.base_url, base=base)
        env |= self.anthropic.cli_env(self.tmp / "claude-config")
        env |= {
            "DISCORD_TOKEN": self.discord.token,
            "DEBATE_CHANNEL_IDS": self.channel_id,
            "AG_USER_IDS": str(self.ag_user["id"]),
            "AG_QUIET_SECONDS": "2",
            "AG_TIMEOUT_SECONDS": "20",
            "GEMINI_API_KEY": "dummy-gemini-key",
            "GOOGLE_GEMINI_BASE_URL": self.gemini.url,
            "CLAUDE_BIN": str(claude),
            "CLAUDE_TIMEOUT_SECONDS": "60",
            "CLAUDE_CODE_MAX_RETRIES": "0",
            "CLAUDE_KEEP_API_KEY": "true",  # the fake Anthropic API takes a dummy key
            "WIKIJS_URL": self.wiki.url,
            "WIKIJS_API_KEY": FULL_KEY,
            "DATABASE_PATH": str(self.tmp / "bot.sqlite3"),
            "DATA_DIR": str(self.tmp / "data"),
            "MAX_ROUNDS": "3",
            "BUDGET_PAUSE": "false",  # these debates end at the round limit
            "RETRY_WAIT_SCALE": "0",
            "DETECT_COOLDOWN_SECONDS": "0",
            "DETECT_MIN_NEW_MESSAGES": "3",
            "LANGUAGE": "ko",
            "LOG_LEVEL": "INFO",
        }
        return env | overrides

    async def start_bot(self, **overrides: str) -> None:
        """`debate-room` as a subprocess; returns once it is connected."""
        self.runs += 1
        before = len(self._bot_sessions())
        with (self.tmp / f"bot-{self.runs}.log").open("wb") as log:
            self.proc = subprocess.Popen(  # a long-lived child, not awaited
                [sys.executable, "-m", "bot"],
                cwd=self.tmp,
                env=self.env(**overrides),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            await asyncio.wait_for(self._connected(before), WAIT)
        except TimeoutError:
            raise AssertionError(f"the bot did not connect\n{self.log()}") from None

    def _bot_sessions(self) -> list[Any]:
        bot_id = self.discord.bot_user["id"]
        return [s for s in self.discord.sessions if s.user is not None and s.user["id"] == bot_id]

    async def _connected(self, before: int) -> None:
        def ready() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                return True
            sessions = self._bot_sessions()
            return len(sessions) > before and sessions[-1].live

        async with self.discord._session_change:  # the fake's own signal
            await self.discord._session_change.wait_for(ready)
        if self.proc is not None and self.proc.poll() is not None:
            raise AssertionError(f"the bot exited with {self.proc.returncode}: {self.log()}")

    def kill(self) -> None:
        """kill -9 the bot and every CLI it started (each runs in a session of its own)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None
        for pid in processes_with_env(self.marker):  # what a container's kill takes down too
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    async def crash(self) -> None:
        """`kill`, then wait until the fake Discord has seen the bot's connection drop."""
        self.kill()

        def gone() -> bool:
            return not any(session.live for session in self._bot_sessions())

        async with asyncio.timeout(WAIT), self.discord._session_change:  # the fake's own signal
            await self.discord._session_change.wait_for(gone)

    @property
    def marker(self) -> str:
        """A string in the environment of the bot and of every CLI it starts."""
        return str(self.tmp / "claude-config")

    def cli_pids(self) -> list[int]:
        """The live processes the bot started (the claude CLI and its children)."""
        bot = self.proc.pid if self.proc is not None else None
        return [pid for pid in processes_with_env(self.marker) if pid != bot]

    def log(self) -> str:
        return "\n".join(
            p.read_text(errors="replace")[-4000:] for p in sorted(self.tmp.glob("bot-*.log"))
        )

    async def wait_for(self, check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
        """Poll a condition on the fakes' state (each poll yields to their servers)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = check()
            if found:
                return found
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"the bot died waiting for {what}\n{self.log()}")
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {what}\n--- bot log ---\n{self.log()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                # woken by any message, edit or wiki request; the bound only rechecks liveness
                await asyncio.wait_for(self.changed.wait(), min(remaining, 1.0))

    # ---- what people do ------------------------------------------------------------------

    async def chat(self, lines: Sequence[tuple[str, str]] = CHAT) -> Json:
        """People talk in the watched channel until the approval card appears."""
        people = {"alice": self.alice, "carol": self.carol, "bob": self.bob}
        for name, text in lines:
            await self.discord.user_message(people[name], text)
        card: Json = await self.wait_for(self.card, "the approval card")
        return card

    async def approve(self, card: Json) -> str:
        """alice presses Open on `card`; returns the debate thread's id."""
        await self.discord.click(card["id"], button_id(card, "open"), self.alice)
        thread: str = await self.wait_for(self.thread_id, "the debate thread")
        return thread

    async def open_debate(self) -> str:
        """Chat, card, approval: a debate under way; returns its thread's id."""
        return await self.approve(await self.chat())

    async def wait_end(self, thread_id: str) -> str:
        """Wait for the final status line and the Conclusion page; returns the status."""
        await self.wait_for(lambda: self.status_ended(thread_id), "the end", timeout=180)
        await self.wait_for(lambda: self.page("conclusion"), "the Conclusion page")
        return self.status(thread_id)
