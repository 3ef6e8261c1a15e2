"""The moderator's CLI backend (`MODERATOR_BACKEND=cli`): a Google account's free quota.

`gemini -p <schema instruction> -o json -m <model>`, the request on stdin, run in a working
directory of its own whose `.gemini/settings.json` turns the CLI's tools and its own retries
off; the system instruction goes in through GEMINI_SYSTEM_MD. The CLI has no schema option:
the prompt carries the JSON schema, and the answer is validated like the API's.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

from handlers.core.shorten import shorten
from tools.cli_process import CliRun, CliTimedOut, run_cli
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
from tools.gemini.context import Prompt, schema_instruction
from tools.gemini.core import (
    ModelReply,
    ModeratorBlocked,
    ModeratorRateLimited,
    ModeratorUnavailable,
    is_per_day,
)

KILL_GRACE_S = 3.0


class GeminiCliBackend:
    """One request through a `gemini` subprocess, bounded by a timeout that kills it."""

    def __init__(
        self,
        binary: str,
        model: str,
        workdir: Path,
        timeout_s: float,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self._binary = binary
        self.model = model
        self._workdir = workdir.resolve()  # the CLI runs in a subfolder: paths must be absolute
        self._timeout_s = timeout_s
        self._env = gemini_environment(env)
        self._prepared = False

    async def generate(self, prompt: Prompt) -> ModelReply:
        """Run the CLI once; map its failures to ModeratorErrors."""
        workspace = self._prepare()
        schema = schema_instruction(prompt.schema, prompt.json, prompt.bare_schema)
        argv = command(self._binary, self.model, schema)
        try:
            run = await run_cli(
                argv,
                stdin=cli_input(prompt).encode("utf-8"),
                cwd=workspace,
                env={**self._env, "GEMINI_SYSTEM_MD": str(self._system_file(prompt.system))},
                timeout_s=self._timeout_s,
                grace_s=KILL_GRACE_S,
            )
        except OSError as exc:
            raise ModeratorUnavailable(f"cannot run {self._binary}: {exc}") from exc
        except CliTimedOut:
            raise ModeratorUnavailable(
                f"gemini CLI timed out after {self._timeout_s:.0f} s"
            ) from None
        return parse_output(run)

    def _prepare(self) -> Path:
        workspace = self._workdir / "workspace"
        if not self._prepared:
            write_workspace(workspace, (), session_retention=True)
            (self._workdir / "system").mkdir(parents=True, exist_ok=True)
            self._prepared = True
        return workspace

    def _system_file(self, system: str) -> Path:
        """The system instruction as a file, named by its hash (concurrent calls share it)."""
        digest = hashlib.sha256(system.encode("utf-8")).hexdigest()[:16]
        path = self._workdir / "system" / f"{digest}.md"
        if not path.exists():
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(system, encoding="utf-8")
            partial.replace(path)
        return path

    async def aclose(self) -> None:
        """Nothing to release: each request is its own process."""


def cli_input(prompt: Prompt) -> str:
    """The request as one text: the user messages (a repair adds the errors to quote)."""
    return "\n\n".join(text for role, text in prompt.messages if role == "user")


def parse_output(run: CliRun) -> ModelReply:
    """The CLI's JSON result, or the ModeratorError its error JSON describes."""
    result = last_json(run.stdout) or {}
    if run.exit_code == 0 and isinstance(result.get("response"), str):
        text = result["response"]
        if not text.strip():
            raise ModeratorBlocked("empty answer (a safety block or an empty candidate)")
        _, tokens_in, tokens_out = usage(result.get("stats"))
        return ModelReply(text=text, input_tokens=tokens_in, output_tokens=tokens_out)
    message, code = error_of(result, run.stderr)
    message = message or run.stderr.strip()[-300:] or f"exit {run.exit_code}"
    if is_rate_limited(code, message):
        raise ModeratorRateLimited(
            f"gemini CLI 429: {shorten(message, 200)}", retry_after(message), is_per_day(message)
        )
    raise ModeratorUnavailable(f"gemini CLI exit {run.exit_code} ({code}): {shorten(message, 300)}")
