"""The Gemini CLI core: one environment without the bot's secrets, one reading of the output."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from tools.cli_process import cli_environment
from tools.gemini.cli import error_of, is_rate_limited, last_json, retry_after, usage
from tools.gemini.cli_moderator import GeminiCliBackend
from tools.gemini.context import Prompt
from tools.gemini.core import is_per_day
from tools.gemini.schemas import JudgeReply

SECRETS = {"DISCORD_TOKEN": "discord-secret", "WIKIJS_API_KEY": "wiki-secret"}


def _echo_env_cli(tmp_path: Path) -> Path:
    """A stand-in `gemini` that answers with the secrets it was given (or "none")."""
    script = tmp_path / "gemini"
    script.write_text(
        "#!/bin/sh\n"
        'printf \'{"response": "%s|%s|%s"}\\n\' "${DISCORD_TOKEN:-none}" '
        '"${WIKIJS_API_KEY:-none}" "${GEMINI_API_KEY:-none}"\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


async def test_the_moderators_cli_never_sees_the_bots_secrets(tmp_path: Path) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GEMINI_API_KEY": "kept", **SECRETS}
    backend = GeminiCliBackend(str(_echo_env_cli(tmp_path)), "m", tmp_path / "work", 30.0, env)
    prompt = Prompt("judge", "system", (("user", "hello"),), JudgeReply)
    reply = await backend.generate(prompt)
    # the Discord token and the wiki key stay with the bot; the CLI may sign in with the API key
    assert reply.text == "none|none|kept"


def test_the_output_is_found_after_any_log_lines_and_unreadable_output_is_none() -> None:
    answer = {"response": "hi", "stats": {"models": {}}}
    printed = json.dumps(answer, indent=2)
    assert last_json("{\n" * 100_000 + printed) == answer  # only the last starts are read
    assert last_json(printed) == answer and last_json("no JSON at all\n{") is None
    deep = '{"response": ' + "[" * 100_000
    assert last_json(f"{printed}\n{deep}") is None  # not raised: its object is cut off
    assert last_json(f"{deep}\n{printed}") == answer


def test_one_environment_builder_strips_every_bot_secret_unless_kept() -> None:
    base = {"PATH": "/bin", "GEMINI_API_KEY": "g", **SECRETS}
    assert cli_environment(base, {"X": "1"}) == {"PATH": "/bin", "X": "1"}
    kept = cli_environment(base, {}, keep=("GEMINI_API_KEY",))
    assert kept == {"PATH": "/bin", "GEMINI_API_KEY": "g"}


def test_the_output_is_read_one_way() -> None:
    stats = {"models": {"flash": {"roles": {"main": {}}, "tokens": {"prompt": 7, "candidates": 3}}}}
    out = "Loaded cached credentials.\n" + json.dumps({"response": "hi", "stats": stats})
    assert last_json(out) == {"response": "hi", "stats": stats}
    assert usage(stats) == ("flash", 7, 3)
    error = {"error": {"code": 429, "message": "Quota per day exceeded, retry in 12.5s"}}
    message, status = error_of({}, json.dumps(error))
    assert is_rate_limited(status, message)
    assert retry_after(message) == 12.5
    assert is_per_day(message)
