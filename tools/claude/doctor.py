"""`debate-room doctor`'s Claude line: installed, logged in, and who pays for its turns."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

from tools.checks import Check, Status
from tools.claude.debater import API_KEY, claude_environment
from tools.cli_process import CliTimedOut, run_cli
from tools.pinned_clis import CLAUDE_PACKAGE, LOCK_FILE, install_command, pinned

PART = "claude"
TIMEOUT_S = 30.0
LOGIN_HINT = "run `claude auth login` (or `claude setup-token`) as the user that runs the bot"
# Since 2026-06-15 `claude -p` on a Pro/Max/Team plan spends the plan's monthly Agent SDK credit.
SUBSCRIPTION = (
    "turns draw on the plan's monthly Agent SDK credit (claim it once; when it is spent, "
    "turns stop unless usage credits are on)"
)
API_BILLING = "Claude's turns bill the Anthropic API at API rates, not the plan's credit"
NODE_FLOOR = 22  # what the pinned @anthropic-ai/claude-code declares, when no lock file is here


async def check_claude_cli(
    name: str, *, keep_api_key: bool, env: Mapping[str, str] | None = None
) -> Check:
    """The `claude` program (CLAUDE_BIN) answers `--version`, and `claude auth status` says it
    is logged in, in the environment the bot gives it (`env`: ours by default)."""
    binary = shutil.which(name)
    if binary is None:
        detail = f"CLAUDE_BIN not found: {name}; install it: {install_command(CLAUDE_PACKAGE)}"
        return Check(PART, Status.FAILING, detail)
    base = dict(os.environ if env is None else env)
    child = claude_environment(base, keep_api_key=keep_api_key)
    code, out = await _run(binary, ["--version"], child)
    lines = out.strip().splitlines()
    if code != 0 or not lines:
        return Check(PART, Status.FAILING, f"{binary} --version: {out.strip() or code}")
    version = f"{lines[0]} ({binary})"
    _, status_out = await _run(binary, ["auth", "status", "--json"], child)
    return _login_verdict(
        version, status_out, key_set=bool(base.get(API_KEY)), keep_api_key=keep_api_key
    )


def _login_verdict(version: str, status_out: str, *, key_set: bool, keep_api_key: bool) -> Check:
    try:
        status = json.loads(status_out)
    except ValueError:
        return Check(PART, Status.OK, f"{version}; login status unknown (`claude auth status`)")
    if not isinstance(status, dict) or not status.get("loggedIn"):
        return Check(PART, Status.FAILING, f"{version}; not logged in: {LOGIN_HINT}")
    method = str(status.get("authMethod") or "unknown")
    if method == "api_key":
        source = status.get("apiKeySource") or "an API key"
        why = f"{source} with CLAUDE_KEEP_API_KEY=true" if source == API_KEY else source
        return Check(PART, Status.WARNING, f"{version}; {API_BILLING} ({why})")
    note = ""
    if key_set and not keep_api_key:
        note = f"; {API_KEY} is set but kept from Claude (CLAUDE_KEEP_API_KEY=false)"
    return Check(PART, Status.OK, f"{version}; logged in ({method}): {SUBSCRIPTION}{note}")


def pinned_node_major(lock_file: Path = LOCK_FILE) -> int:
    """The Node major version the pinned claude CLI declares (`engines.node` in the lock file)."""
    engines = pinned(CLAUDE_PACKAGE, lock_file).get("engines")
    wanted = str(engines.get("node", "")) if isinstance(engines, dict) else ""
    if not wanted:
        return NODE_FLOOR
    found = re.match(r"\s*>=\s*(\d+)", wanted)
    return int(found.group(1)) if found else NODE_FLOOR


async def check_node_version(name: str = "node", lock_file: Path = LOCK_FILE) -> Check:
    """Node is at least what the pinned claude CLI declares: npm on an older Node quietly
    installs an older Claude Code instead of refusing."""
    wanted = pinned_node_major(lock_file)
    binary = shutil.which(name)
    if binary is None:
        detail = f"{name} not found: the claude CLI installs with npm on Node.js >= {wanted}"
        return Check("node", Status.WARNING, detail)
    code, out = await _run(binary, ["--version"], dict(os.environ))
    found = re.match(r"v?(\d+)\.", out.strip())
    if code != 0 or found is None:
        return Check("node", Status.WARNING, f"{binary} --version: {out.strip() or code}")
    shown = out.strip()
    if int(found.group(1)) < wanted:
        detail = (
            f"{shown} is older than the Node.js >= {wanted} the pinned claude CLI declares: "
            "npm installs an older Claude Code on it; install Node.js "
            f"{wanted} or newer"
        )
        return Check("node", Status.WARNING, detail)
    return Check("node", Status.OK, f"{shown} (the pinned claude CLI declares >= {wanted})")


async def _run(binary: str, args: list[str], env: Mapping[str, str]) -> tuple[int | None, str]:
    """Exit code and output (stdout, else stderr) of one short CLI call."""
    try:
        run = await run_cli(
            [binary, *args], stdin=None, cwd=Path.cwd(), env=env, timeout_s=TIMEOUT_S, grace_s=2.0
        )
    except OSError as exc:
        return None, f"cannot run {binary}: {exc.strerror or exc}"
    except CliTimedOut:
        return None, f"did not answer in {TIMEOUT_S:.0f} s"
    return run.exit_code, run.stdout or run.stderr
