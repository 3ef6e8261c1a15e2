"""The command-line programs the bot drives, as pinned in `.ci/node/package-lock.json` (the
versions the tests ran against; the Docker image installs the same): what installs each."""

from __future__ import annotations

import json
from pathlib import Path

LOCK_FILE = Path(__file__).resolve().parents[1] / ".ci" / "node" / "package-lock.json"
CLAUDE_PACKAGE = "@anthropic-ai/claude-code"
GEMINI_PACKAGE = "@google/gemini-cli"


def pinned(package: str, lock_file: Path = LOCK_FILE) -> dict[str, object]:
    """The lock file's entry of `package` (empty: no lock file here, as in a wheel install)."""
    try:
        lock = json.loads(lock_file.read_text(encoding="utf-8"))
        entry = lock["packages"][f"node_modules/{package}"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return entry if isinstance(entry, dict) else {}


def install_command(package: str, lock_file: Path = LOCK_FILE) -> str:
    """The command that installs `package` at the pinned version (the newest without a pin)."""
    version = pinned(package, lock_file).get("version")
    return f"npm install -g {package}@{version if isinstance(version, str) else 'latest'}"
