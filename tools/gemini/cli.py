"""The Gemini CLI core shared by the moderator backend and the debater seat.

One way to prepare the CLI's working directory, build its environment, run it, read its JSON
output (the answer, the token counts, the error) and tell a rate limit with its retry delay.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tools.cli_process import cli_environment

# The CLI authenticates with GEMINI_API_KEY when no Google account is signed in: kept.
KEEP_SECRETS = ("GEMINI_API_KEY",)
# Line-start `{`s `last_json` tries, each read to the end of the output. The CLI prints its
# object last and indented, so its `{` is the last one that opens a line; a few more are
# tolerance, and a flood of `{` lines cannot make the reading quadratic.
MAX_OBJECT_STARTS = 16
_RETRY_AFTER = re.compile(r"retry (?:after|in) (\d+(?:\.\d+)?)\s*s", re.IGNORECASE)


def gemini_environment(base: Mapping[str, str] | None) -> dict[str, str]:
    """The CLI's environment: ours (or `base`) without the bot's secrets, the workspace trusted."""
    extra = {"GEMINI_CLI_TRUST_WORKSPACE": "true", "NO_COLOR": "1"}
    return cli_environment(base, extra, keep=KEEP_SECRETS)


def write_workspace(folder: Path, tools: Sequence[str], *, session_retention: bool) -> None:
    """`.gemini/settings.json` in `folder`: only `tools`, no retries, updates or telemetry.

    The CLI's own retries are off: 429s are retried (and counted) by the caller.
    """
    general: dict[str, Any] = {
        "maxAttempts": 1,
        "disableAutoUpdate": True,
        "disableUpdateNag": True,
    }
    if session_retention:
        general["sessionRetention"] = {"enabled": True, "maxAge": "7d"}
    settings = {
        "general": general,
        "tools": {"core": list(tools)},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
    }
    (folder / ".gemini").mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings, indent=2)
    (folder / ".gemini" / "settings.json").write_text(text, encoding="utf-8")


def command(
    binary: str,
    model: str,
    prompt: str = "",
    session_id: str | None = None,
    *,
    new_session: str | None = None,
) -> list[str]:
    """`gemini -p <prompt> -o json -m <model> [--resume <id> | --session-id <new id>]`; the
    request goes on stdin."""
    argv = [binary, "-p", prompt, "-o", "json", "-m", model]
    if session_id:
        argv += ["--resume", session_id]
    elif new_session:
        argv += ["--session-id", new_session]
    return argv


def last_json(text: str) -> dict[str, Any] | None:
    """The last top-level JSON object printed (the CLI prints it after any log lines): read
    from a `{` that starts a line to the end of the output, the last such `{` first."""
    end = len(text)
    for _ in range(MAX_OBJECT_STARTS):
        start = text.rfind("\n{", 0, end) + 1
        if start == 0 and not text.startswith("{"):
            return None
        try:
            value = json.loads(text[start:])
        except (RecursionError, ValueError):  # not JSON, or nested deeper than it can be read
            value = None
        if isinstance(value, dict):
            return value
        if start == 0:
            return None
        end = start
    return None


def usage(stats: object) -> tuple[str, int, int]:
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


def error_of(result: dict[str, Any], stderr: str) -> tuple[str, object]:
    """(message, status code) of the error the CLI printed on stdout or stderr ("" / None)."""
    error = result.get("error") or (last_json(stderr) or {}).get("error") or {}
    if not isinstance(error, dict):
        return "", None
    return str(error.get("message") or ""), error.get("code")


def is_rate_limited(status: object, message: str) -> bool:
    """A 429 (the quota), however the CLI reports it."""
    return status == 429 or "RESOURCE_EXHAUSTED" in message


def retry_after(message: str) -> float | None:
    """The delay a 429's message asks for, in seconds."""
    found = _RETRY_AFTER.search(message)
    return float(found.group(1)) if found else None
