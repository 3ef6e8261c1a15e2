"""Fixtures for the end-to-end suite: every fake started, the bot launched by the test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import World
from tests.fakes.fake_anthropic import find_claude_bin


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    if find_claude_bin() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the claude CLI is missing in CI: .ci/run must install it")
        pytest.skip("the claude CLI is not installed here; `bash .ci/run` installs it")
    started = await World(tmp_path).start()
    try:
        yield started
    finally:
        await started.stop()
