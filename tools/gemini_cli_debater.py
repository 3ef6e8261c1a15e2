"""The AG seat on the Gemini CLI: `gemini -p "" -o json -m <model> [--resume <id>]`.

For the console, when no Discord relay reaches AG in its IDE. The prompt goes on stdin. Each
debate gets a working directory of its own (the CLI keeps sessions per project directory, so a
session resumes only from where it started) whose `.gemini/settings.json` allows read-only tools
and turns the CLI's own retries off: the engine retries, and counts them. The participant
system prompt replaces the CLI's coding prompt through GEMINI_SYSTEM_MD.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handlers.model import FailureKind, Seat, TurnMeta
from handlers.ports import DebaterOutput, TurnRequest
from handlers.shorten import shorten
from tools.agent_sessions import AgentSessions
from tools.cli_process import CliFailure, CliTimedOut, Redactor, child_environment, run_cli
from tools.db import Database

log = logging.getLogger(__name__)

# What the debater may use: reading files and the web, never writing or running anything.
READ_ONLY_TOOLS = (
    "read_file",
    "read_many_files",
    "list_directory",
    "glob",
    "grep_search",
    "google_web_search",
    "web_fetch",
)
# Exit codes of gemini-cli 0.61 (FatalError subclasses); API errors exit with status & 0xff.
EXIT_AUTH = 41
EXIT_INPUT = 42
_BOT_SECRETS = ("DISCORD_TOKEN", "WIKIJS_API_KEY")  # the CLI may need GEMINI_API_KEY: kept
_RETRY_AFTER = re.compile(r"retry (?:after|in) (\d+(?:\.\d+)?)\s*s", re.I)
_SESSION_GONE = re.compile(r"Error resuming session|Invalid session identifier|No session", re.I)
_UNREACHABLE = re.compile(r"fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|socket", re.I)
_DETAIL_LIMIT = 600


class GeminiCliError(CliFailure):
    """A failed `gemini` call: the engine's failure kind plus the exit code and stderr."""


@dataclass(frozen=True)
class CliReply:
    """What one successful call printed."""

    session_id: str
    response: str
    model: str
    input_tokens: int
    output_tokens: int


class GeminiCliDebater:
    """A debater seat (AG by default) answered by the Gemini CLI, one process per turn."""

    def __init__(
        self,
        db: Database,
        *,
        binary: str,
        system_prompt: str,
        model: str,
        timeout_s: float,
        workdir_root: Path,
        seat: Seat = Seat.AG,
        tools: tuple[str, ...] = READ_ONLY_TOOLS,
        env: Mapping[str, str] | None = None,
        grace_s: float = 3.0,
    ) -> None:
        self.seat = seat
        self._sessions = AgentSessions(db, seat)
        self._binary = binary
        self._system_prompt = system_prompt
        self._model = model
        self._timeout_s = timeout_s
        # Absolute: the CLI runs inside the directory, and reads GEMINI_SYSTEM_MD from there.
        self._root = workdir_root.resolve()
        self._tools = tools
        self._grace_s = grace_s
        self._env = child_environment(
            env, _BOT_SECRETS, {"GEMINI_CLI_TRUST_WORKSPACE": "true", "NO_COLOR": "1"}
        )
        self._redact = Redactor(self._env)
        self._locks: dict[int, asyncio.Lock] = {}

    def command(self, session_id: str | None) -> list[str]:
        """The argument list of one call; the prompt itself goes on stdin."""
        argv = [self._binary, "-p", "", "-o", "json", "-m", self._model]
        if session_id:
            argv += ["--resume", session_id]
        return argv

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Run one turn; a debate's turns run one at a time, resuming its session."""
        async with self._locks.setdefault(request.debate_id, asyncio.Lock()):
            resume, workdir = await self._sessions.resume_point(
                request.debate_id, request.fresh_session, self._workdir(request.debate_id)
            )
            self._prepare(workdir)
            code, out, err, latency = await self._run(self.command(resume), request.prompt, workdir)
            try:
                reply = parse_output(code, out, err)
            except GeminiCliError as exc:
                raise self._failure(exc, code, err, request, resumed=bool(resume)) from None
            if reply.session_id:
                await self._sessions.put(request.debate_id, reply.session_id, workdir)
            meta = TurnMeta(
                model=reply.model or self._model,
                input_tokens=reply.input_tokens,
                output_tokens=reply.output_tokens,
                latency_s=latency,
                session_id=reply.session_id or None,
            )
            return DebaterOutput(text=reply.response, raw=out, meta=meta)

    def _failure(
        self, exc: GeminiCliError, code: int, err: str, request: TurnRequest, *, resumed: bool
    ) -> GeminiCliError:
        """The error with secrets removed, and a log line saying what happened."""
        stderr = self._redact(err)
        log.warning("gemini debate=%s turn=%s resume=%s exit=%s %s", request.debate_id,
                    request.turn, resumed, code, exc.kind.value)  # fmt: skip
        log.debug("gemini stderr: %s", stderr[-2000:])
        detail = shorten(self._redact(exc.detail), _DETAIL_LIMIT)
        return GeminiCliError(exc.kind, detail, exc.retry_after, exit_code=code,
                              stderr=stderr[-4000:])  # fmt: skip

    async def forget(self, debate_id: int) -> None:
        """Drop the debate's session id (its chat file stays in the CLI's own folder)."""
        await self._sessions.delete(debate_id)
        lock = self._locks.get(debate_id)
        if lock is not None and not lock.locked():
            del self._locks[debate_id]

    def _workdir(self, debate_id: int) -> Path:
        return self._root / str(debate_id)

    def _prepare(self, workdir: Path) -> None:
        """The working directory with its CLI settings and the system prompt file."""
        (workdir / ".gemini").mkdir(parents=True, exist_ok=True)
        settings = {
            "general": {"maxAttempts": 1, "disableAutoUpdate": True, "disableUpdateNag": True},
            "tools": {"core": list(self._tools)},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
        }
        (workdir / ".gemini" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        (workdir / ".gemini" / "system.md").write_text(self._system_prompt, encoding="utf-8")

    async def _run(self, argv: list[str], prompt: str, cwd: Path) -> tuple[int, str, str, float]:
        env = {**self._env, "GEMINI_SYSTEM_MD": str(cwd / ".gemini" / "system.md")}
        try:
            run = await run_cli(
                argv, stdin=prompt.encode("utf-8"), cwd=cwd, env=env,
                timeout_s=self._timeout_s, grace_s=self._grace_s,
            )  # fmt: skip
        except OSError as exc:
            detail = f"cannot run {self._binary}: {exc.strerror or exc}"
            raise GeminiCliError(FailureKind.USAGE, detail) from exc
        except CliTimedOut as exc:
            raise GeminiCliError(FailureKind.TIMEOUT, str(exc)) from None
        return run.exit_code, run.stdout, run.stderr, run.latency_s


def parse_output(code: int, stdout: str, stderr: str) -> CliReply:
    """The reply of a successful call, or the GeminiCliError its output describes."""
    result = last_json(stdout) or {}
    response = result.get("response")
    if code == 0 and isinstance(response, str) and response.strip():
        model, tokens_in, tokens_out = _usage(result.get("stats"))
        return CliReply(str(result.get("session_id") or ""), response, model, tokens_in, tokens_out)
    if code == 0 and isinstance(response, str):
        raise GeminiCliError(FailureKind.SERVER, "empty answer (a safety block?)", exit_code=0)
    raise classify_failure(code, result, stderr)


def classify_failure(code: int, result: dict[str, Any], stderr: str) -> GeminiCliError:
    """Map a failed call to the engine's failure kinds."""
    error = result.get("error") or (last_json(stderr) or {}).get("error") or {}
    message = str(error.get("message") or "") if isinstance(error, dict) else ""
    status = error.get("code") if isinstance(error, dict) else None
    tail = stderr.strip()[-300:]
    detail = shorten(message or tail or f"exit {code}", _DETAIL_LIMIT)
    kind = FailureKind.USAGE
    retry_after = None
    if _SESSION_GONE.search(stderr) or _SESSION_GONE.search(message):
        kind = FailureKind.SESSION_MISSING
    elif status == 429 or "RESOURCE_EXHAUSTED" in message:
        kind = FailureKind.RATE_LIMITED
        found = _RETRY_AFTER.search(message)
        retry_after = float(found.group(1)) if found else None
    elif status in (401, 403) or code == EXIT_AUTH:
        kind = FailureKind.AUTH
    elif isinstance(status, int) and status >= 500:
        kind = FailureKind.SERVER
    elif _UNREACHABLE.search(message):
        kind = FailureKind.UNREACHABLE
    return GeminiCliError(kind, detail, retry_after, exit_code=code)


def last_json(text: str) -> dict[str, Any] | None:
    """The last top-level JSON object printed (the CLI prints it after any log lines)."""
    for match in reversed(list(re.finditer(r"^\{", text, re.MULTILINE))):
        try:
            value = json.loads(text[match.start() :])
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _usage(stats: object) -> tuple[str, int, int]:
    """(the main model, prompt tokens, answer tokens) from the CLI's stats."""
    if not isinstance(stats, dict) or not isinstance(stats.get("models"), dict):
        return "", 0, 0
    name, prompt, answer = "", 0, 0
    for model, figures in stats["models"].items():
        if not isinstance(figures, dict):
            continue
        if not name or "main" in (figures.get("roles") or {}):
            name = str(model)
        tokens = figures.get("tokens") or {}
        prompt += int(tokens.get("prompt") or 0)
        answer += int(tokens.get("candidates") or 0)
    return name, prompt, answer
