"""The Claude Code debater: `claude -p [--resume <sid>] --output-format stream-json` as a
subprocess; its streamed text is shown as it comes, its final `result` line is the record."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from pathlib import Path

from handlers.core.model import CLAUDE, Backend, FailureKind, TurnMeta
from handlers.core.shorten import shorten
from handlers.ports import DebaterOutput, TurnRequest
from tools.claude.output import CliResult, Failure, classify
from tools.claude.stream import TextSoFar, result_line
from tools.cli_process import (
    CliFailure,
    CliRun,
    CliTimedOut,
    Redactor,
    cli_environment,
    run_cli,
)
from tools.store.db import Database
from tools.store.sessions import AgentSessions

__all__ = [
    "API_KEY",
    "ClaudeCliError",
    "ClaudeCodeDebater",
    "claude_environment",
    "read_only_tools",
]

log = logging.getLogger(__name__)

# Tools that change files or run programs: a debater writes documents only.
WRITE_TOOLS = frozenset(
    {
        "Agent",
        "Bash",
        "BashOutput",
        "Edit",
        "KillShell",
        "MultiEdit",
        "NotebookEdit",
        "Task",
        "Write",
    }
)
# Web tools need a permission that `-p` cannot ask for, so they are pre-approved. Local reads are
# not: pre-approving Read would let it leave the working directory.
WEB_TOOLS = ("WebSearch", "WebFetch")
# With this set the CLI bills the API instead of the subscription it is logged in with.
API_KEY = "ANTHROPIC_API_KEY"


def read_only_tools(tools: str) -> list[str]:
    """The tool names of a CLAUDE_TOOLS list; ValueError if one of them writes or runs code."""
    names = [t.strip() for t in tools.split(",") if t.strip()]
    writing = sorted(set(names) & WRITE_TOOLS)
    if writing:
        raise ValueError(f"CLAUDE_TOOLS must be read-only; remove {', '.join(writing)}")
    return names


_DETAIL_LIMIT = 600  # what the thread shows
_STDERR_LIMIT = 8000  # the end of stderr is where the CLI says what went wrong


class ClaudeCliError(CliFailure):
    """A failed `claude` call: the engine's failure kind plus the exit code and stderr."""


class ClaudeCodeDebater:
    """The Claude CLI backend: one process per turn, a session per (debate, participant),
    read-only tools."""

    backend = Backend.CLAUDE_CLI

    def __init__(
        self,
        db: Database,
        *,
        binary: str,
        system_prompt: str,
        model: str | None,
        tools: str,
        timeout_s: float,
        max_retries: int,
        max_concurrency: int,
        workdir_root: Path,
        workdir: Path | None = None,
        env: Mapping[str, str] | None = None,
        keep_api_key: bool = False,
        grace_s: float = 5.0,
    ) -> None:
        names = read_only_tools(tools)
        self._sessions = AgentSessions(db, CLAUDE)
        self._binary = binary
        self._system_prompt = system_prompt
        self._model = model
        self._tools = ",".join(names)
        self._web_tools = [t for t in names if t in WEB_TOOLS]
        self._timeout_s = timeout_s
        self._grace_s = grace_s
        self._workdir_root = workdir_root
        self._workdir = workdir
        self._env = claude_environment(env, keep_api_key=keep_api_key, max_retries=max_retries)
        self._redact = Redactor(self._env)
        self._slots = asyncio.Semaphore(max_concurrency)
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}

    def command(self, session_id: str | None, model: str = "") -> list[str]:
        """The argument list of one call; the prompt itself goes on stdin (a participant's
        own model, if set, over the configured one)."""
        argv = [self._binary, "-p", "--output-format", "stream-json", "--verbose"]
        argv += ["--include-partial-messages"]
        argv += ["--system-prompt", self._system_prompt, "--tools", self._tools]
        argv += ["--permission-mode", "default", "--strict-mcp-config"]
        if self._web_tools:
            argv += ["--allowedTools", ",".join(self._web_tools)]
        if model or self._model:
            argv += ["--model", model or self._model or ""]
        if session_id:
            argv += ["--resume", session_id]
        return argv

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Run one turn; a participant's turns run one at a time, resuming its session."""
        who = request.session_key(CLAUDE)
        async with self._locks.setdefault((request.debate_id, who), asyncio.Lock()):
            resume, workdir = await self._sessions.resume_point(
                request.debate_id,
                request.fresh_session,
                self._workdir_for(request.debate_id),
                who,
            )
            workdir.mkdir(parents=True, exist_ok=True)
            async with self._slots:
                run = await self._run(self.command(resume, request.model), request, workdir)
            parsed, failure = classify(run.exit_code, run.stdout, run.stderr, time.time())
            log.info(
                "claude debate=%s turn=%s resume=%s exit=%s %.1fs %s",
                request.debate_id,
                request.turn,
                bool(resume),
                run.exit_code,
                run.latency_s,
                failure.kind.value if failure else "ok",
            )
            # A failed first call leaves nothing worth resuming; any resumed call's id is the
            # latest one of the session, whatever happened.
            if parsed is not None and parsed.session_id and (failure is None or resume):
                await self._sessions.put(request.debate_id, parsed.session_id, workdir, who)
            if failure is not None or parsed is None:
                raise self._error(failure, run)
            return DebaterOutput(
                text=parsed.result or "", raw=result_line(run.stdout), meta=self._meta(parsed, run)
            )

    async def forget(self, debate_id: int) -> None:
        """Drop the debate's session id, its lock and its (empty) working directory."""
        await self._sessions.delete(debate_id)
        for key in [key for key in self._locks if key[0] == debate_id]:
            if not self._locks[key].locked():
                del self._locks[key]
        if self._workdir is None:
            with contextlib.suppress(OSError):  # gone already, or not empty: keep it
                self._workdir_for(debate_id).rmdir()

    def _workdir_for(self, debate_id: int) -> Path:
        return self._workdir or self._workdir_root / "claude" / str(debate_id)

    def _error(self, failure: Failure | None, run: CliRun) -> ClaudeCliError:
        failure = failure or Failure(FailureKind.USAGE, "no result")  # classify gives one
        return ClaudeCliError(
            failure.kind,
            shorten(self._redact(failure.detail), _DETAIL_LIMIT),
            failure.retry_after,
            exit_code=run.exit_code,
            stderr=self._redact(run.stderr)[-_STDERR_LIMIT:],
        )

    def _meta(self, parsed: CliResult, run: CliRun) -> TurnMeta:
        return TurnMeta(
            model=parsed.model or self._model or "",
            input_tokens=parsed.input_tokens,
            output_tokens=parsed.output_tokens,
            cost_usd=parsed.total_cost_usd,
            latency_s=run.latency_s,
            num_turns=parsed.num_turns,
            session_id=parsed.session_id,
            denied_tools=parsed.permission_denials,
        )

    async def _run(self, argv: list[str], request: TurnRequest, cwd: Path) -> CliRun:
        streamed = TextSoFar()

        def on_line(line: str) -> None:
            if streamed.feed(line):
                request.show_text(streamed.text)

        try:
            return await run_cli(
                argv, stdin=request.prompt.encode("utf-8"), cwd=cwd, env=self._env,
                timeout_s=self._timeout_s, grace_s=self._grace_s, on_line=on_line,
            )  # fmt: skip
        except OSError as exc:
            detail = f"cannot run {self._binary}: {exc.strerror or exc}"
            raise ClaudeCliError(FailureKind.USAGE, detail) from exc
        except CliTimedOut as exc:
            raise ClaudeCliError(FailureKind.TIMEOUT, str(exc)) from None


def claude_environment(
    base: Mapping[str, str] | None, *, keep_api_key: bool, max_retries: int | None = None
) -> dict[str, str]:
    """The CLI's environment: ours (or `base`) without the bot's secrets, and without
    ANTHROPIC_API_KEY unless CLAUDE_KEEP_API_KEY says to keep it."""
    extra = {} if max_retries is None else {"CLAUDE_CODE_MAX_RETRIES": str(max_retries)}
    env = cli_environment(base, extra)
    if not keep_api_key:
        env.pop(API_KEY, None)
    return env
