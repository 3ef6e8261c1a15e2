"""The Claude Code debater: `claude -p [--resume <sid>] --output-format stream-json` as a
subprocess; its streamed text is shown as it comes, its final `result` line is the record."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from handlers.core.model import CLAUDE, Backend, FailureKind, TurnMeta
from handlers.core.reply.schema import words_fields
from handlers.core.spending.state import Window
from handlers.ports import DebaterError, DebaterOutput, TurnRequest
from tools.claude.output import classify, window_of
from tools.claude.stream import progress, reply_text, result_line
from tools.cli_debater import CliDebater
from tools.cli_process import CliFailure, CliRun, cli_environment
from tools.store.sessions import AgentSessions

__all__ = [
    "API_KEY",
    "ClaudeCliError",
    "ClaudeCodeDebater",
    "claude_environment",
    "read_only_tools",
]

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


class ClaudeCliError(CliFailure):
    """A failed `claude` call: the engine's failure kind plus the exit code and stderr."""


class ClaudeCodeDebater(CliDebater):
    """The Claude CLI backend: read-only tools, its text shown as it streams."""

    backend = Backend.CLAUDE_CLI
    error = ClaudeCliError

    def __init__(
        self,
        sessions: AgentSessions,
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
        fallback_models: Mapping[str, str] | None = None,
        structured: bool = True,
    ) -> None:
        names = read_only_tools(tools)
        super().__init__(
            sessions,
            participant=CLAUDE,
            binary=binary,
            timeout_s=timeout_s,
            grace_s=grace_s,
            env=claude_environment(env, keep_api_key=keep_api_key, max_retries=max_retries),
            max_concurrency=max_concurrency,
        )
        self._system_prompt = system_prompt
        self._model = model
        # Per seat (its id; "" for every seat): the models the CLI falls back to when the
        # main one is busy or unavailable (CLAUDE_FALLBACK_MODEL).
        self._fallback = dict(fallback_models or {})
        # Ask the CLI to validate the reply's shape (`--json-schema`): the answer then comes
        # through a tool call, whose words fields are shown live from its partial input.
        self._structured = structured
        self._tools = ",".join(names)
        self._web_tools = [t for t in names if t in WEB_TOOLS]
        self._workdir_root = workdir_root
        self._fixed_workdir = workdir
        self.window: Window | None = None  # the latest the CLI reported, for the next card

    def command(
        self,
        session_id: str | None,
        model: str = "",
        system: str = "",
        *,
        seat: str = "",
        schema: str = "",
        budget_usd: float | None = None,
    ) -> list[str]:
        """The argument list of one call (the prompt goes on stdin); `model` over the default,
        `system` (the debate's language's) over the system prompt; the seat's fallback models;
        the reply's JSON Schema, which the CLI validates itself; the most the call may spend.

        Read-only, by the CLI's own flag besides our tool list: `--permission-prompts none`
        denies whatever would ask for a permission (a write, a command, a read outside the
        working folder); `--tools` names only CLAUDE_TOOLS, which refuses a write tool at
        start-up. Not `--restricted`: it also ignores the settings files, where a login by
        `apiKeyHelper` lives."""
        argv = [self._binary, "-p", "--output-format", "stream-json", "--verbose"]
        argv += ["--include-partial-messages"]
        argv += ["--system-prompt", system or self._system_prompt, "--tools", self._tools]
        argv += ["--permission-mode", "default", "--strict-mcp-config"]
        argv += ["--permission-prompts", "none"]
        if self._web_tools:
            argv += ["--allowedTools", ",".join(self._web_tools)]
        if model or self._model:
            argv += ["--model", model or self._model or ""]
        fallback = self._fallback.get(seat) or self._fallback.get("", "")
        if fallback:
            argv += ["--fallback-model", fallback]
        if schema:
            argv += ["--json-schema", schema]
        if budget_usd is not None:
            argv += ["--max-budget-usd", f"{budget_usd:.6f}"]
        if session_id:
            argv.append(f"--resume={session_id}")  # one word, as the SDK passes it
        return argv

    async def forget(self, debate_id: int) -> None:
        """Drop the debate's session id, its lock and its (empty) working directory."""
        await super().forget(debate_id)
        if self._fixed_workdir is None:
            with contextlib.suppress(OSError):  # gone already, or not empty: keep it
                self._workdir(debate_id).rmdir()

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        """Run one turn; with nothing left of the people's dollar budget, none is run: the
        people decide first (a capped call needs a cap above zero)."""
        if request.budget_usd is not None and request.budget_usd <= 0:
            raise self.error(FailureKind.BUDGET, "nothing is left of the debate's dollar budget")
        return await super().speak(request)

    def _argv(
        self, resume: str | None, request: TurnRequest, named: str | None = None
    ) -> list[str]:
        return self.command(
            resume,
            request.model,
            request.system_prompt,
            seat=request.participant,
            schema=self._schema(request),
            budget_usd=request.budget_usd,
        )

    def _workdir(self, debate_id: int) -> Path:
        return self._fixed_workdir or self._workdir_root / "claude" / str(debate_id)

    def _schema(self, request: TurnRequest) -> str:
        """The reply's JSON Schema the CLI is given ('': none, the format's parser alone)."""
        return request.reply_schema if self._structured else ""

    def _on_lines(self, request: TurnRequest) -> Callable[[list[str]], None]:
        return progress(request.show_text, words_fields(self._schema(request)))

    def _read(
        self, run: CliRun, request: TurnRequest
    ) -> tuple[DebaterOutput | None, DebaterError | None]:
        window = window_of(run.stdout)
        self.window = window or self.window
        parsed, failure = classify(run.exit_code, run.stdout, run.stderr, time.time())
        if parsed is None:
            return None, failure
        text = reply_text(
            parsed.result, parsed.structured, run.stdout, schema=self._schema(request)
        )
        if failure is None and not text.strip():  # the schema not met, and nothing written
            failure = DebaterError(FailureKind.EMPTY, f"no answer ({parsed.subtype})")
        if failure is not None and failure.kind is FailureKind.BUDGET and text:
            failure = None  # it answered before the cap stopped it: the answer is kept whole
        if failure is not None and failure.kind is FailureKind.BUDGET:
            failure = DebaterError(failure.kind, failure.detail, cost_usd=parsed.total_cost_usd)
        meta = TurnMeta(
            model=parsed.model or self._model or "",
            input_tokens=parsed.input_tokens,
            output_tokens=parsed.output_tokens,
            cost_usd=parsed.total_cost_usd,
            latency_s=run.latency_s,
            num_turns=parsed.num_turns,
            session_id=parsed.session_id,
            denied_tools=parsed.permission_denials,
            window=window,
        )
        answer = DebaterOutput(text=text, raw=result_line(run.stdout), meta=meta)
        return answer, failure


def claude_environment(
    base: Mapping[str, str] | None, *, keep_api_key: bool, max_retries: int | None = None
) -> dict[str, str]:
    """The CLI's environment: `cli_environment`, less ANTHROPIC_API_KEY unless it is kept."""
    extra = {} if max_retries is None else {"CLAUDE_CODE_MAX_RETRIES": str(max_retries)}
    env = cli_environment(base, extra)
    if not keep_api_key:
        env.pop(API_KEY, None)
    return env
