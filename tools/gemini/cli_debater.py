"""The AG seat on the Gemini CLI: `gemini -p "" -o json -m <model> [--resume <id>]`.

For the console, when no Discord relay reaches AG in its IDE. The prompt goes on stdin. Each
debate gets a working directory of its own (the CLI keeps sessions per project directory, so a
session resumes only from where it started) whose `.gemini/settings.json` allows read-only tools
and turns the CLI's own retries off: the engine retries, and counts them. The participant
system prompt replaces the CLI's coding prompt through GEMINI_SYSTEM_MD.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from handlers.core.model import AG, Backend, FailureKind, TurnMeta
from handlers.core.shorten import shorten
from handlers.ports import DebaterError, DebaterOutput, TurnRequest
from tools.cli_debater import DETAIL_LIMIT, CliDebater
from tools.cli_process import CliFailure, CliRun
from tools.gemini.cli import (
    command,
    error_of,
    gemini_environment,
    is_rate_limited,
    last_json,
    retry_after,
    usage,
    write_workspace,
)
from tools.store.sessions import AgentSessions

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
_SESSION_GONE = re.compile(r"Error resuming session|Invalid session identifier|No session", re.I)
_UNREACHABLE = re.compile(r"fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|socket", re.I)
# A request longer than the model's context window: the API's 400 "The input token count (N)
# exceeds the maximum number of tokens allowed (M)", or 0.61.0's own check ahead of sending,
# "Context window will overflow (estimated: N, remaining: M)".
_CONTEXT_FULL = re.compile(
    r"input token count.{0,40}exceeds the maximum number of tokens|Context window will overflow",
    re.I,
)


class GeminiCliError(CliFailure):
    """A failed `gemini` call: the engine's failure kind plus the exit code and stderr."""


class GeminiCliDebater(CliDebater):
    """The Gemini CLI backend; `participant` names the sessions of requests naming none."""

    backend = Backend.GEMINI_CLI
    error = GeminiCliError

    def __init__(
        self,
        sessions: AgentSessions,
        *,
        binary: str,
        system_prompt: str,
        model: str,
        timeout_s: float,
        workdir_root: Path,
        participant: str = AG,
        env: Mapping[str, str] | None = None,
        grace_s: float = 3.0,
    ) -> None:
        super().__init__(
            sessions,
            participant=participant,
            binary=binary,
            timeout_s=timeout_s,
            grace_s=grace_s,
            env=gemini_environment(env),
        )
        self._system_prompt = system_prompt
        self._model = model
        # Absolute: the CLI runs inside the directory, and reads GEMINI_SYSTEM_MD from there.
        self._root = workdir_root.resolve()

    def _argv(
        self, resume: str | None, request: TurnRequest, named: str | None = None
    ) -> list[str]:
        return command(self._binary, self._model, "", resume, new_session=named)

    def _new_session_id(self) -> str | None:
        """The CLI starts a session under the id we give it (`--session-id`)."""
        return str(uuid.uuid4())

    def _workdir(self, debate_id: int) -> Path:
        return self._root / str(debate_id)

    def _prepare(self, workdir: Path, request: TurnRequest) -> Mapping[str, str]:
        """The working directory with its CLI settings and the system prompt file (in the
        debate's language)."""
        write_workspace(workdir, READ_ONLY_TOOLS, session_retention=False)
        system_md = workdir / ".gemini" / "system.md"
        system_md.write_text(request.system_prompt or self._system_prompt, encoding="utf-8")
        return {"GEMINI_SYSTEM_MD": str(system_md)}

    def _read(
        self, run: CliRun, request: TurnRequest
    ) -> tuple[DebaterOutput | None, DebaterError | None]:
        try:
            return parse_output(run, self._model), None
        except GeminiCliError as exc:
            return None, exc


def parse_output(run: CliRun, model: str) -> DebaterOutput:
    """The answer of a successful run (`model` if its stats name none), or the GeminiCliError
    its output describes."""
    result = last_json(run.stdout) or {}
    response = result.get("response")
    if run.exit_code == 0 and isinstance(response, str) and response.strip():
        used, tokens_in, tokens_out = usage(result.get("stats"))
        meta = TurnMeta(
            model=used or model,
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            latency_s=run.latency_s,
            session_id=str(result.get("session_id") or "") or None,
        )
        return DebaterOutput(text=response, raw=run.stdout, meta=meta)
    if run.exit_code == 0 and isinstance(response, str):
        raise GeminiCliError(FailureKind.SERVER, "empty answer (a safety block?)", exit_code=0)
    raise classify_failure(run.exit_code, result, run.stderr)


def classify_failure(code: int, result: dict[str, Any], stderr: str) -> GeminiCliError:
    """Map a failed call to the engine's failure kinds."""
    message, status = error_of(result, stderr)
    tail = stderr.strip()[-300:]
    detail = shorten(message or tail or f"exit {code}", DETAIL_LIMIT)
    kind = FailureKind.USAGE
    wait = None
    if _SESSION_GONE.search(stderr) or _SESSION_GONE.search(message):
        kind = FailureKind.SESSION_MISSING
    elif _CONTEXT_FULL.search(message) or _CONTEXT_FULL.search(tail):
        kind = FailureKind.CONTEXT_FULL
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
