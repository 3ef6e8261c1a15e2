"""The console with Gemini configured but failing: it says why on screen and runs the rules."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.console.build import ConsoleOptions
from bot.console.keyboard import Keyboard
from bot.console.session import console_session
from bot.settings import Settings
from handlers.core.i18n import Strings
from tests.bot.console.conftest import Screen, plain_console
from tests.doubles import FakeClock, QueueLines
from tests.fakes.fake_gemini import FakeGemini

T = Strings("ko")


@pytest.fixture
async def refusing_gemini(monkeypatch: pytest.MonkeyPatch) -> FakeGemini:
    """A Gemini endpoint that refuses the key (as a revoked or mistyped one is refused)."""
    server = await FakeGemini(default={"kind": "error", "status": 403}).start()
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", server.url)
    return server


async def test_an_unreachable_gemini_is_named_on_screen_and_the_rules_take_over(
    settings: Settings, screen: Screen, refusing_gemini: FakeGemini, tmp_path: Path
) -> None:
    configured = settings.model_copy(update={"GEMINI_API_KEY": SecretStr("revoked-key")})
    lines = QueueLines()
    session = asyncio.create_task(
        console_session(
            configured,
            ConsoleOptions(ag="human", claude="human"),
            plain_console(screen),
            Keyboard(lines),
            FakeClock(),
        )
    )
    try:
        await screen.shows(T("console.shortcut_label"))  # /debate is offered: rules mode
        shown = screen.getvalue()
        assert "규칙 모드 (Gemini에 연결할 수 없음:" in shown
        assert "403 PERMISSION_DENIED: API key" in shown and "revoked-key" not in shown
        lines.push("/debate 캐시 계층 선택")
        await screen.shows(T("console.card_title"))  # /debate is no longer refused
    finally:
        lines.close()
        await asyncio.wait_for(session, 20)
        await refusing_gemini.stop()
    assert len(refusing_gemini.generate_requests) == 1  # one counted ping, then the rules
