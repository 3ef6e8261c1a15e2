"""Fixtures for the end-to-end suite: every fake started, the bot launched by the test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.clis import installed_or_skip
from tests.e2e.harness import World
from tests.fakes.fake_anthropic import find_claude_bin


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    installed_or_skip(find_claude_bin(), "claude")
    started = await World(tmp_path).start()
    try:
        yield started
    finally:
        await started.stop()
