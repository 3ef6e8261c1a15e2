"""The AG seat on the Gemini CLI: `gemini -p "" -o json -m <model> [--resume <id>]`.

For the console, when no Discord relay reaches AG in its IDE. The prompt goes on stdin. Each
debate gets a working directory of its own (the CLI keeps sessions per project directory, so a
session resumes only from where it started) whose `.gemini/settings.json` allows read-only tools
and turns the CLI's own retries off: the engine retries, and counts them. The participant
system prompt replaces the CLI's coding prompt through GEMINI_SYSTEM_MD.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handlers.core.model import AG, Backend, FailureKind, TurnMeta
from handlers.core.shorten import shorten
from handlers.ports import DebaterOutput, TurnRequest
from tools.cli_process import CliFailure, CliRun, CliTimedOut, Redactor
from tools.gemini.cli import (
    command,
    error_of,
    gemini_environment,
    is_rate_limited,
    last_json,
    retry_after,
    run_gemini,
    usage,
    write_workspace,
)
from tools.store.db import Database
from tools.store.sessions import AgentSessions

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
    """The Gemini CLI backend: one process per turn, a session per (debate, participant);
    `participant` names the sessions of requests that carry none (AG at the console)."""

    backend = Backend.GEMINI_CLI

    def __init__(
        self,
        db: Database,
        *,
        binary: str,
        system_prompt: str,
        model: str,
        timeout_s: float,
        workdir_root: Path,
        participant: str = AG,
        tools: tuple[str, ...] = READ_ONLY_TOOLS,
        env: Mapping[str, str] | None = None,
        grace_s: float = 3.0,
    ) -> None:
        self.participant = participant
        self._sessions = AgentSessions(db, participant)
        self._binary = binary
        self._system_prompt = system_prompt
        self._model = model
        self._timeout_s = timeout_s
        # Absolute: the CLI runs inside the directory, and reads GEMINI_SYSTEM_MD from there.
        self._root = workdir_root.resolve()
        self._tools = tools
        self._grace_s = grace_s
        self._env = gemini_environment(env)
        self._redact = Redactor(self._env)
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}

    def command(self, session_id: str | None) -> list[str]:
        """The argument list of one call; the prompt itself goes on stdin."""
        return command(self._binary, self._model, "", session_id)

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Run one turn; a participant's turns run one at a time, resuming its session."""
        who = request.session_key(self.participant)
        async with self._locks.setdefault((request.debate_id, who), asyncio.Lock()):
            resume, workdir = await self._sessions.resume_point(
                request.debate_id, request.fresh_session, self._workdir(request.debate_id), who
            )
            self._prepare(workdir)
            run = await self._run(self.command(resume), request.prompt, workdir)
            try:
                reply = parse_output(run.exit_code, run.stdout, run.stderr)
            except GeminiCliError as exc:
                raise self._failure(exc, run, request, resumed=bool(resume)) from None
            if reply.session_id:
                await self._sessions.put(request.debate_id, reply.session_id, workdir, who)
            meta = TurnMeta(
                model=reply.model or self._model,
                input_tokens=reply.input_tokens,
                output_tokens=reply.output_tokens,
                latency_s=run.latency_s,
                session_id=reply.session_id or None,
            )
            return DebaterOutput(text=reply.response, raw=run.stdout, meta=meta)

    def _failure(
        self, exc: GeminiCliError, run: CliRun, request: TurnRequest, *, resumed: bool
    ) -> GeminiCliError:
        """The error with secrets removed, and a log line saying what happened."""
        code, stderr = run.exit_code, self._redact(run.stderr)
        log.warning("gemini debate=%s turn=%s resume=%s exit=%s %s", request.debate_id,
                    request.turn, resumed, code, exc.kind.value)  # fmt: skip
        log.debug("gemini stderr: %s", stderr[-2000:])
        detail = shorten(self._redact(exc.detail), _DETAIL_LIMIT)
        return GeminiCliError(exc.kind, detail, exc.retry_after, exit_code=code,
                              stderr=stderr[-4000:])  # fmt: skip

    async def forget(self, debate_id: int) -> None:
        """Drop the debate's session id (its chat file stays in the CLI's own folder)."""
        await self._sessions.delete(debate_id)
        for key in [key for key in self._locks if key[0] == debate_id]:
            if not self._locks[key].locked():
                del self._locks[key]

    def _workdir(self, debate_id: int) -> Path:
        return self._root / str(debate_id)

    def _prepare(self, workdir: Path) -> None:
        """The working directory with its CLI settings and the system prompt file."""
        write_workspace(workdir, self._tools, session_retention=False)
        (workdir / ".gemini" / "system.md").write_text(self._system_prompt, encoding="utf-8")

    async def _run(self, argv: list[str], prompt: str, cwd: Path) -> CliRun:
        try:
            return await run_gemini(
                argv, stdin=prompt, cwd=cwd, env=self._env,
                system_md=cwd / ".gemini" / "system.md", timeout_s=self._timeout_s,
                grace_s=self._grace_s,
            )  # fmt: skip
        except OSError as exc:
            detail = f"cannot run {self._binary}: {exc.strerror or exc}"
            raise GeminiCliError(FailureKind.USAGE, detail) from exc
        except CliTimedOut as exc:
            raise GeminiCliError(FailureKind.TIMEOUT, str(exc)) from None


def parse_output(code: int, stdout: str, stderr: str) -> CliReply:
    """The reply of a successful call, or the GeminiCliError its output describes."""
    result = last_json(stdout) or {}
    response = result.get("response")
    if code == 0 and isinstance(response, str) and response.strip():
        model, tokens_in, tokens_out = usage(result.get("stats"))
        return CliReply(str(result.get("session_id") or ""), response, model, tokens_in, tokens_out)
    if code == 0 and isinstance(response, str):
        raise GeminiCliError(FailureKind.SERVER, "empty answer (a safety block?)", exit_code=0)
    raise classify_failure(code, result, stderr)


def classify_failure(code: int, result: dict[str, Any], stderr: str) -> GeminiCliError:
    """Map a failed call to the engine's failure kinds."""
    message, status = error_of(result, stderr)
    tail = stderr.strip()[-300:]
    detail = shorten(message or tail or f"exit {code}", _DETAIL_LIMIT)
    kind = FailureKind.USAGE
    wait = None
    if _SESSION_GONE.search(stderr) or _SESSION_GONE.search(message):
        kind = FailureKind.SESSION_MISSING
    elif is_rate_limited(status, message):
        kind = FailureKind.RATE_LIMITED
        wait = retry_after(message)
    elif status in (401, 403) or code == EXIT_AUTH:
        kind = FailureKind.AUTH
    elif isinstance(status, int) and status >= 500:
        kind = FailureKind.SERVER
    elif _UNREACHABLE.search(message):
        kind = FailureKind.UNREACHABLE
    return GeminiCliError(kind, detail, wait, exit_code=code)
