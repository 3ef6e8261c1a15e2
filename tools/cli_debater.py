"""The skeleton every CLI debater shares (Claude Code, the Gemini CLI): a session per (debate,
participant) resumed turn after turn, one run of the program per turn (tools/cli_process),
and its failures raised as the backend's CliFailure. A backend fills in the hooks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from handlers.core.model import Backend, FailureKind
from handlers.core.shorten import shorten
from handlers.ports import DebaterError, DebaterOutput, TurnRequest
from tools.cli_process import CliFailure, CliRun, CliTimedOut, Redactor, run_cli
from tools.store.sessions import AgentSessions

log = logging.getLogger(__name__)

DETAIL_LIMIT = 600  # what the thread shows
STDERR_LIMIT = 8000  # the end of stderr is where a CLI says what went wrong


class CliDebater(ABC):
    """A debater that runs a command-line program once per turn, resuming its session."""

    backend: Backend
    error: ClassVar[type[CliFailure]]  # what this backend raises

    def __init__(
        self,
        sessions: AgentSessions,
        *,
        participant: str,
        binary: str,
        timeout_s: float,
        grace_s: float,
        env: Mapping[str, str],
        max_concurrency: int | None = None,
    ) -> None:
        self.participant = participant
        self._sessions = sessions  # its rows are named by participant on every call
        self._binary = binary
        self._timeout_s = timeout_s
        self._grace_s = grace_s
        self._env = dict(env)
        self._redact = Redactor(self._env)
        self._slots: contextlib.AbstractAsyncContextManager[Any] = (
            asyncio.Semaphore(max_concurrency) if max_concurrency else contextlib.nullcontext()
        )
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}

    @abstractmethod
    def _argv(
        self, resume: str | None, request: TurnRequest, named: str | None = None
    ) -> list[str]:
        """The argument list of one call (the prompt goes on stdin): resuming `resume`, or
        starting the session `named` (its id chosen here, see `_new_session_id`)."""

    def _new_session_id(self) -> str | None:
        """The id a new session is started under, when the CLI lets the caller choose it
        (None: the CLI picks one and the answer names it)."""
        return None

    @abstractmethod
    def _read(
        self, run: CliRun, request: TurnRequest
    ) -> tuple[DebaterOutput | None, DebaterError | None]:
        """What a finished run of `request` printed: its answer (with the session id), or
        why it failed."""

    @abstractmethod
    def _workdir(self, debate_id: int) -> Path:
        """Where a new session of the debate runs."""

    def _prepare(self, workdir: Path, request: TurnRequest) -> Mapping[str, str]:
        """Make the working directory ready; the environment this run adds."""
        workdir.mkdir(parents=True, exist_ok=True)
        return {}

    def _on_lines(self, request: TurnRequest) -> Callable[[list[str]], None] | None:
        """What reads stdout's lines as they come (None: read it at the end)."""
        return None

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Run one turn; a participant's turns run one at a time, resuming its session."""
        who = request.session_key(self.participant)
        async with self._locks.setdefault((request.debate_id, who), asyncio.Lock()):
            resume, workdir = await self._sessions.resume_point(
                request.debate_id, request.fresh_session, self._workdir(request.debate_id), who
            )
            extra_env = self._prepare(workdir, request)
            # A session whose id we choose is stored before the call: a process that dies
            # while the CLI answers resumes that session when the turn is asked again.
            named = self._new_session_id() if resume is None else None
            if named:
                await self._sessions.put(request.debate_id, named, workdir, who)
            try:
                async with self._slots:
                    argv = self._argv(resume, request, named)
                    run = await self._run(argv, request, workdir, extra_env)
            except BaseException:
                if named:  # the call did not run to an answer: nothing worth resuming
                    await asyncio.shield(self._sessions.delete(request.debate_id, who))
                raise
            answer, failure = self._read(run, request)
            session_id = answer.meta.session_id if answer is not None else None
            log.info(
                "%s debate=%s turn=%s resume=%s exit=%s %.1fs %s",
                self.backend.value,
                request.debate_id,
                request.turn,
                bool(resume),
                run.exit_code,
                run.latency_s,
                failure.kind.value if failure else "ok",
            )
            # A failed first call leaves nothing worth resuming; any resumed call's id is the
            # latest one of the session, whatever happened.
            if session_id and (failure is None or resume):
                await self._sessions.put(request.debate_id, session_id, workdir, who)
            elif named and failure is not None:  # a failed first call leaves nothing to resume
                await self._sessions.delete(request.debate_id, who)
            if failure is not None or answer is None:
                raise self._error(failure, run)
            return answer

    async def forget(self, debate_id: int) -> None:
        """Drop the debate's session id and its locks."""
        await self._sessions.delete(debate_id, self.participant)
        for key in [key for key in self._locks if key[0] == debate_id]:
            if not self._locks[key].locked():
                del self._locks[key]

    def _error(self, failure: DebaterError | None, run: CliRun) -> CliFailure:
        """The backend's error, secrets removed, with the exit code and the end of stderr."""
        kind = failure.kind if failure else FailureKind.USAGE  # a parser gives one or the other
        detail = failure.detail if failure else "no result"
        log.debug("%s stderr: %s", self.backend.value, self._redact(run.stderr)[-2000:])
        return self.error(
            kind,
            shorten(self._redact(detail), DETAIL_LIMIT),
            failure.retry_after if failure else None,
            exit_code=run.exit_code,
            stderr=self._redact(run.stderr)[-STDERR_LIMIT:],
            cost_usd=failure.cost_usd if failure else 0.0,
        )

    async def _run(
        self, argv: list[str], request: TurnRequest, cwd: Path, extra_env: Mapping[str, str]
    ) -> CliRun:
        try:
            return await run_cli(
                argv,
                stdin=request.prompt.encode("utf-8"),
                cwd=cwd,
                env={**self._env, **extra_env},
                timeout_s=self._timeout_s,
                grace_s=self._grace_s,
                on_lines=self._on_lines(request),
            )
        except OSError as exc:
            detail = f"cannot run {self._binary}: {exc.strerror or exc}"
            raise self.error(FailureKind.USAGE, detail) from exc
        except CliTimedOut as exc:
            raise self.error(FailureKind.TIMEOUT, str(exc)) from None
