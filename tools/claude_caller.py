"""The Claude Code debater: `claude -p [--resume <sid>] --output-format json` as a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from handlers.model import FailureKind, Seat, TurnMeta
from handlers.ports import DebaterError, DebaterOutput, TurnRequest
from tools.checks import Check, Status
from tools.claude_output import CliResult, Failure, classify
from tools.claude_sessions import ClaudeSessions, forget_expired_sessions, schedule_session_expiry
from tools.db import Database

if TYPE_CHECKING:
    from bot.settings import Settings

__all__ = [
    "ClaudeCliError",
    "ClaudeCodeDebater",
    "check_claude",
    "forget_expired_sessions",
    "schedule_session_expiry",
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
# The bot's own secrets never reach the CLI's environment.
_BOT_SECRETS = ("DISCORD_TOKEN", "GEMINI_API_KEY", "WIKIJS_API_KEY")
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD", re.I)
_DETAIL_LIMIT = 600  # what the thread shows
_STDERR_LIMIT = 8000  # the end of stderr is where the CLI says what went wrong


class ClaudeCliError(DebaterError):
    """A failed `claude` call: the engine's failure kind plus the exit code and stderr."""

    def __init__(
        self,
        kind: FailureKind,
        detail: str,
        retry_after: float | None = None,
        *,
        exit_code: int | None = None,
        stderr: str = "",
    ) -> None:
        super().__init__(kind, detail, retry_after)
        self.exit_code = exit_code
        self.stderr = stderr


@dataclass(frozen=True)
class _Run:
    exit_code: int
    stdout: str
    stderr: str
    latency_s: float


class ClaudeCodeDebater:
    """The Claude seat: one CLI process per turn, resumed per debate, read-only tools."""

    seat = Seat.CLAUDE

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
        grace_s: float = 5.0,
    ) -> None:
        names = [t.strip() for t in tools.split(",") if t.strip()]
        writing = sorted(set(names) & WRITE_TOOLS)
        if writing:
            raise ValueError(f"CLAUDE_TOOLS must be read-only; remove {', '.join(writing)}")
        self._sessions = ClaudeSessions(db)
        self._binary = binary
        self._system_prompt = system_prompt
        self._model = model
        self._tools = ",".join(names)
        self._web_tools = [t for t in names if t in WEB_TOOLS]
        self._timeout_s = timeout_s
        self._grace_s = grace_s
        self._workdir_root = workdir_root
        self._workdir = workdir
        base = dict(os.environ if env is None else env)
        for name in _BOT_SECRETS:
            base.pop(name, None)
        self._env = {**base, "CLAUDE_CODE_MAX_RETRIES": str(max_retries)}
        self._secrets = [v for k, v in self._env.items() if _SECRET_NAME.search(k) and len(v) >= 8]
        self._slots = asyncio.Semaphore(max_concurrency)
        self._locks: dict[int, asyncio.Lock] = {}

    def command(self, session_id: str | None) -> list[str]:
        """The argument list of one call; the prompt itself goes on stdin."""
        argv = [self._binary, "-p", "--output-format", "json"]
        argv += ["--system-prompt", self._system_prompt, "--tools", self._tools]
        argv += ["--permission-mode", "default", "--strict-mcp-config"]
        if self._web_tools:
            argv += ["--allowedTools", ",".join(self._web_tools)]
        if self._model:
            argv += ["--model", self._model]
        if session_id:
            argv += ["--resume", session_id]
        return argv

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Run one turn; turns of a debate run one at a time, resuming its session."""
        async with self._locks.setdefault(request.debate_id, asyncio.Lock()):
            stored = None if request.fresh_session else await self._sessions.get(request.debate_id)
            resume = stored.session_id if stored else None
            workdir = (stored.workdir if stored else None) or self._workdir_for(request.debate_id)
            workdir.mkdir(parents=True, exist_ok=True)
            async with self._slots:
                run = await self._run(self.command(resume), request.prompt, workdir)
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
                await self._sessions.put(request.debate_id, parsed.session_id, workdir)
            if failure is not None or parsed is None:
                raise self._error(failure, run)
            return DebaterOutput(
                text=parsed.result or "", raw=run.stdout, meta=self._meta(parsed, run)
            )

    async def forget(self, debate_id: int) -> None:
        """Drop the debate's session id, its lock and its (empty) working directory."""
        await self._sessions.delete(debate_id)
        lock = self._locks.get(debate_id)
        if lock is not None and not lock.locked():
            del self._locks[debate_id]
        if self._workdir is None:
            with contextlib.suppress(OSError):  # gone already, or not empty: keep it
                self._workdir_for(debate_id).rmdir()

    def _workdir_for(self, debate_id: int) -> Path:
        return self._workdir or self._workdir_root / "claude" / str(debate_id)

    def _error(self, failure: Failure | None, run: _Run) -> ClaudeCliError:
        failure = failure or Failure(FailureKind.USAGE, "no result")  # classify gives one
        return ClaudeCliError(
            failure.kind,
            self._redact(failure.detail)[:_DETAIL_LIMIT],
            failure.retry_after,
            exit_code=run.exit_code,
            stderr=self._redact(run.stderr)[-_STDERR_LIMIT:],
        )

    def _meta(self, parsed: CliResult, run: _Run) -> TurnMeta:
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

    async def _run(self, argv: list[str], prompt: str, cwd: Path) -> _Run:
        started = time.monotonic()
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=self._env,
                start_new_session=True,
            )
        except OSError as exc:
            raise ClaudeCliError(
                FailureKind.USAGE, f"cannot run {self._binary}: {exc.strerror or exc}"
            ) from exc
        try:
            async with asyncio.timeout(self._timeout_s):
                out, err = await proc.communicate(prompt.encode("utf-8"))
        except TimeoutError:
            await _stop(proc, self._grace_s)
            raise ClaudeCliError(
                FailureKind.TIMEOUT, f"no answer within {self._timeout_s:g} s", exit_code=None
            ) from None
        except asyncio.CancelledError:
            # The engine cancels a turn when someone presses Stop: the CLI must not outlive it.
            await asyncio.shield(_stop(proc, self._grace_s))
            raise
        finally:
            _signal_group(proc.pid, signal.SIGKILL)  # whatever the CLI started ends with it
        return _Run(
            exit_code=proc.returncode if proc.returncode is not None else -1,
            stdout=out.decode("utf-8", "replace"),
            stderr=err.decode("utf-8", "replace"),
            latency_s=time.monotonic() - started,
        )

    def _redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


async def _stop(proc: asyncio.subprocess.Process, grace_s: float) -> None:
    """Terminate the process group, wait, then kill it."""
    _signal_group(proc.pid, signal.SIGTERM)
    try:
        async with asyncio.timeout(grace_s):
            await proc.wait()
    except TimeoutError:
        _signal_group(proc.pid, signal.SIGKILL)
        await proc.wait()


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone already
        os.killpg(pgid, sig)


async def check_claude(settings: Settings) -> Check:
    """`debate-room doctor`: CLAUDE_BIN exists and answers `--version`."""

    binary = shutil.which(settings.CLAUDE_BIN)
    if binary is None:
        return Check("claude", Status.FAILING, f"CLAUDE_BIN not found: {settings.CLAUDE_BIN}")
    try:
        proc = await asyncio.create_subprocess_exec(
            binary,
            "--version",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return Check("claude", Status.FAILING, f"cannot run {binary}: {exc.strerror or exc}")
    try:
        async with asyncio.timeout(30):
            out, err = await proc.communicate()
    except TimeoutError:
        await _stop(proc, 2.0)
        return Check("claude", Status.FAILING, f"{binary} --version did not answer in 30 s")
    lines = (out or err).decode("utf-8", "replace").strip().splitlines()
    if proc.returncode != 0 or not lines:
        return Check("claude", Status.FAILING, f"{binary} --version exited {proc.returncode}")
    return Check("claude", Status.OK, f"{lines[0]} ({binary})")
