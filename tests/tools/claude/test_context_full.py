"""A debater's own context overflow in a long debate (design v3's open question 3), as the real
CLIs report it against the loopback fakes: its own failure kind, so the engine restarts the seat
in a fresh session instead of ending the debate on a "CLI error"."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from handlers.core.model import AG, FailureKind
from handlers.ports import DebaterError, TurnRequest
from tests.clis import GEMINI_BIN, installed_or_skip
from tests.fakes.fake_anthropic import FakeAnthropic, prompt_too_long
from tests.fakes.fake_gemini import FakeGemini
from tests.tools.claude.conftest import add_debate
from tools.claude.debater import ClaudeCodeDebater
from tools.gemini.cli_debater import GeminiCliDebater, GeminiCliError
from tools.store.db import Database
from tools.store.sessions import AgentSessions

pytestmark = pytest.mark.cli

# The Gemini API's own words for an input past the model's window (a 400 INVALID_ARGUMENT).
GEMINI_TOO_LONG = (
    "The input token count (1234567) exceeds the maximum number of tokens allowed (1048576)."
)


def ask(turn: int, prompt: str, fresh: bool = False) -> TurnRequest:
    return TurnRequest(debate_id=1, turn=turn, round=1, prompt=prompt, fresh_session=fresh)


async def test_claude_s_prompt_is_too_long_is_a_full_context_and_a_fresh_session_answers(
    make_debater: Callable[..., ClaudeCodeDebater], fake: FakeAnthropic, db: Database
) -> None:
    await add_debate(db, 1)
    debater = make_debater()
    fake.script_replies("first answer")
    first = await debater.speak(ask(1, "opening: outbox or streams?"))
    # Too long however often the CLI tries (it compacts the conversation first, then gives up).
    fake.mode = prompt_too_long()
    with pytest.raises(DebaterError) as caught:
        await debater.speak(ask(2, "the other side replied at length"))
    assert caught.value.kind is FailureKind.CONTEXT_FULL
    assert caught.value.detail.startswith("Prompt is too long")  # the CLI's own words

    # What the engine does next: the same turn in a fresh session, with no old conversation.
    fake.mode = "ok"
    fake.script_replies("after the restart")
    again = await debater.speak(ask(2, "the debate so far, briefed afresh", fresh=True))
    assert again.text == "after the restart"
    assert again.meta.session_id != first.meta.session_id
    sent = json.dumps(fake.messages()[-1]["messages"])
    assert "opening: outbox or streams?" not in sent and "first answer" not in sent


@pytest.fixture
async def gemini_fake() -> AsyncIterator[FakeGemini]:
    server = await FakeGemini().start()
    yield server
    await server.stop()


async def test_the_gemini_cli_s_input_token_count_exceeded_is_a_full_context(
    gemini_fake: FakeGemini, db: Database, tmp_path: Path
) -> None:
    binary = installed_or_skip(GEMINI_BIN, "gemini")
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (home / ".gemini" / "settings.json").write_text(json.dumps(auth), encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": gemini_fake.url,
        "TMPDIR": str(tmp_path),
    }
    await add_debate(db, 1)
    debater = GeminiCliDebater(
        AgentSessions(db, AG),
        binary=str(binary),
        system_prompt="you debate",
        model="gemini-2.5-pro",
        timeout_s=60.0,
        workdir_root=tmp_path / "ag",
        env=env,
    )
    gemini_fake.push({"kind": "error", "status": 400, "message": GEMINI_TOO_LONG})
    with pytest.raises(GeminiCliError) as caught:
        await debater.speak(ask(1, "a long debate"))
    assert caught.value.kind is FailureKind.CONTEXT_FULL
    assert "exceeds the maximum number of tokens" in caught.value.detail
