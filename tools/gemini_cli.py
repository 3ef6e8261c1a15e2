"""The moderator on the Gemini CLI (`MODERATOR_BACKEND=cli`): a Google account's free quota.

`gemini -p <schema instruction> -o json -m <model>`, the request on stdin, run in a working
directory of its own whose `.gemini/settings.json` turns the CLI's tools and its own retries
off; the system instruction goes in through GEMINI_SYSTEM_MD. The CLI has no schema option:
the prompt carries the JSON schema, and the answer is validated like the API's.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from handlers.rules_moderator import RulesModerator
from tools.cli_process import CliTimedOut, run_cli
from tools.db import Database
from tools.gemini_context import Prompt, schema_instruction
from tools.gemini_core import (
    ModelReply,
    ModeratorBlocked,
    ModeratorRateLimited,
    ModeratorUnavailable,
    Sleep,
    StructuredModerator,
)
from tools.gemini_ledger import ModeratorLedger, quota_day

# The CLI's own settings for our working directory: no tools, no retries of its own (we
# retry 429s ourselves, counted), no telemetry, old sessions cleaned up.
WORKSPACE_SETTINGS: dict[str, Any] = {
    "general": {
        "maxAttempts": 1,
        "disableAutoUpdate": True,
        "disableUpdateNag": True,
        "sessionRetention": {"enabled": True, "maxAge": "7d"},
    },
    "tools": {"core": []},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
KILL_GRACE_S = 3.0
_RETRY_AFTER = re.compile(r"retry (?:after|in) (\d+(?:\.\d+)?)\s*s", re.IGNORECASE)
_DAILY = re.compile(r"daily quota|PerDay|per[ _-]day", re.IGNORECASE)


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
        self._env = dict(env) if env is not None else None
        self._prepared = False

    async def generate(self, prompt: Prompt) -> ModelReply:
        """Run the CLI once; map its failures to ModeratorErrors."""
        workspace = self._prepare()
        args = [self._binary, "-p", schema_instruction(prompt.schema, prompt.json), "-o", "json"]
        args += ["-m", self.model]
        env = {
            **(self._env if self._env is not None else os.environ),
            "GEMINI_SYSTEM_MD": str(self._system_file(prompt.system)),
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }
        try:
            run = await run_cli(
                args, stdin=cli_input(prompt).encode("utf-8"), cwd=workspace, env=env,
                timeout_s=self._timeout_s, grace_s=KILL_GRACE_S,
            )  # fmt: skip
        except OSError as exc:
            raise ModeratorUnavailable(f"cannot run {self._binary}: {exc}") from exc
        except CliTimedOut:
            raise ModeratorUnavailable(
                f"gemini CLI timed out after {self._timeout_s:.0f} s"
            ) from None
        return parse_output(run.exit_code, run.stdout, run.stderr)

    def _prepare(self) -> Path:
        workspace = self._workdir / "workspace"
        if not self._prepared:
            (workspace / ".gemini").mkdir(parents=True, exist_ok=True)
            (self._workdir / "system").mkdir(parents=True, exist_ok=True)
            settings = json.dumps(WORKSPACE_SETTINGS, indent=2)
            (workspace / ".gemini" / "settings.json").write_text(settings, encoding="utf-8")
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


def cli_input(prompt: Prompt) -> str:
    """The request as one text: the user messages (a repair adds the errors to quote)."""
    return "\n\n".join(text for role, text in prompt.messages if role == "user")


def parse_output(returncode: int, stdout: str, stderr: str) -> ModelReply:
    """The CLI's JSON result, or the ModeratorError its error JSON describes."""
    result = _last_json(stdout) or {}
    if returncode == 0 and isinstance(result.get("response"), str):
        text = result["response"]
        if not text.strip():
            raise ModeratorBlocked("empty answer (a safety block or an empty candidate)")
        tokens = _tokens(result.get("stats"))
        return ModelReply(text=text, input_tokens=tokens[0], output_tokens=tokens[1])
    error = (result.get("error") or (_last_json(stderr) or {}).get("error")) or {}
    message = str(error.get("message") or stderr.strip()[-300:] or f"exit {returncode}")
    code = error.get("code")
    if code == 429 or "RESOURCE_EXHAUSTED" in message:
        retry = _RETRY_AFTER.search(message)
        per_day = bool(_DAILY.search(message))
        retry_after = float(retry.group(1)) if retry else None
        raise ModeratorRateLimited(f"gemini CLI 429: {message[:200]}", retry_after, per_day)
    raise ModeratorUnavailable(f"gemini CLI exit {returncode} ({code}): {message[:300]}")


def _last_json(text: str) -> dict[str, Any] | None:
    """The last top-level JSON object printed (the CLI prints it after any log lines)."""
    starts = [m.start() for m in re.finditer(r"^\{", text, re.MULTILINE)]
    for start in reversed(starts):
        try:
            value = json.loads(text[start:])
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _tokens(stats: object) -> tuple[int, int]:
    if not isinstance(stats, dict):
        return 0, 0
    prompt = candidates = 0
    for model in (stats.get("models") or {}).values():
        tokens = (model.get("tokens") or {}) if isinstance(model, dict) else {}
        prompt += int(tokens.get("prompt") or 0)
        candidates += int(tokens.get("candidates") or 0)
    return prompt, candidates


class GeminiCliModerator(StructuredModerator):
    """The moderator through the Gemini CLI, same port and rules as the API one."""

    def __init__(
        self,
        binary: str,
        db: Database,
        *,
        workdir: Path,
        model: str,
        language: str,
        budget: int,
        timeout_s: float,
        sleep: Sleep,
        rules: RulesModerator,
        today: Callable[[], date] = quota_day,
        env: Mapping[str, str] | None = None,
    ) -> None:
        backend = GeminiCliBackend(binary, model, workdir, timeout_s, env)
        super().__init__(
            backend, ModeratorLedger(db, budget, today), language=language, sleep=sleep, rules=rules
        )
