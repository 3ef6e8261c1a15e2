"""The seats a Discord test may run for real: Claude on the `claude` CLI against the fake
Anthropic API, and the moderator's tasks on the google-genai SDK against the fake Gemini;
both built on the bot's own database once the bot has opened it."""

from __future__ import annotations

import asyncio

from google import genai
from google.genai import types

from handlers.core.i18n import Strings
from handlers.core.model import CLAUDE, Backend
from handlers.ports import DebaterOutput, TaskRequest, TurnRequest
from handlers.rules_moderator import RulesModerator
from tests.bot.discord.conftest import BotRig
from tests.doubles import ScriptedModerator
from tests.fakes.fake_anthropic import FakeAnthropic
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.claude.conftest import READ_ONLY, SYSTEM_PROMPT
from tools.claude.debater import ClaudeCodeDebater
from tools.gemini.api import GeminiApiBackend
from tools.gemini.core import GeminiModerator
from tools.store.quota import ModeratorQuota
from tools.store.sessions import AgentSessions


class RealClaude:
    """Claude on the real `claude` CLI against the fake Anthropic API, built on the bot's own
    database once the bot has opened it."""

    backend = Backend.CLAUDE_CLI

    def __init__(self, rig: BotRig, api: FakeAnthropic, binary: str) -> None:
        self.rig, self.api, self.binary = rig, api, binary
        self.inner: ClaudeCodeDebater | None = None
        self.requests: list[TurnRequest] = []

    def enqueue(self, *replies: str) -> None:
        self.api.script_replies(*replies)

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        if self.inner is None:
            assert self.rig.services is not None
            config = self.rig.tmp / "claude-config"
            config.mkdir(exist_ok=True)
            self.inner = ClaudeCodeDebater(
                AgentSessions(self.rig.services.db, CLAUDE),
                binary=self.binary,
                system_prompt=SYSTEM_PROMPT,
                model=None,
                tools=READ_ONLY,
                timeout_s=60.0,
                max_retries=0,
                max_concurrency=2,
                workdir_root=self.rig.tmp / "claude",
                env=self.api.cli_env(config),
                keep_api_key=True,  # the fake takes a dummy key
            )
        self.requests.append(request)
        return await self.inner.speak(request)

    async def forget(self, debate_id: int) -> None:
        if self.inner is not None:
            await self.inner.forget(debate_id)


class GeminiTasks(ScriptedModerator):
    """The moderator's tasks (the ledger, the front page) on the real google-genai SDK against
    the fake Gemini, each with its response schema; detection and the rest scripted."""

    def __init__(self, rig: BotRig, api: FakeGemini, language: str) -> None:
        super().__init__()
        self.rig, self.api, self.language = rig, api, language
        self.inner: GeminiModerator | None = None

    async def perform(self, request: TaskRequest) -> str:
        if self.inner is None:
            assert self.rig.services is not None
            client = genai.Client(
                api_key="test-key",
                http_options=types.HttpOptions(base_url=self.api.url, api_version="v1beta"),
            )
            rules = RulesModerator(Strings(self.language))
            backend = GeminiApiBackend(client, "gemini-flash-latest", 10.0)
            self.inner = GeminiModerator(
                backend,
                ModeratorQuota(self.rig.services.db, 100),
                language=self.language,
                sleep=asyncio.sleep,
                rules=rules,
            )
        self.task_requests.append(request)
        return await self.inner.perform(request)
