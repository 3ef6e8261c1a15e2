"""The real command-line programs the tests drive, installed by `bash .ci/run` into .ci/node."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NODE_BIN = Path(__file__).resolve().parents[1] / ".ci" / "node" / "node_modules" / ".bin"
GEMINI_BIN = NODE_BIN / "gemini"


def installed_or_skip(found: Path | None, what: str) -> Path:
    """`found`, or a skip that says why; in CI (CI=true) a missing program fails the test."""
    if found is not None and found.exists():
        return found
    reason = f"the {what} CLI is not installed (npm missing? `bash .ci/run` installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)
