"""Prompts load with exactly their placeholders; both locales hold the same keys."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prompts
from handlers.core.effects import AskDebater
from handlers.core.i18n import LANGUAGES, LocaleError, Strings, load_table
from handlers.core.model import AG, CLAUDE, Debate, Floor, Phase, Proposal, Setup, Turn, TurnMeta
from handlers.core.reply.fields import encodable, shown
from handlers.core.reply.parser import parse_reply
from handlers.prompting import compose_turn_prompt, participant_system_prompt

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_or_unused_placeholder_is_an_error() -> None:
    with pytest.raises(prompts.PromptError, match="missing"):
        prompts.load("debate_note", "ko")
    with pytest.raises(prompts.PromptError, match="unused"):
        prompts.load("debate_note", "ko", note="x", extra="y")
    with pytest.raises(prompts.PromptError, match="no prompt"):
        prompts.load("no_such_prompt")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_participant_prompt_carries_the_contract(language: str) -> None:
    text = participant_system_prompt(language)
    for field in ("opinion", "wiki_action", "question", "stance", "Working-Document"):
        assert field in text
    assert ("Korean" in text) == (language == "ko")


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "ko"])
def test_every_locale_has_the_same_keys(language: str) -> None:
    ko, other = load_table("ko"), load_table(language)
    assert set(ko) == set(other)
    for key in ko:
        assert set(re.findall(r"{(\w+)}", ko[key])) == set(re.findall(r"{(\w+)}", other[key])), key


def test_every_localized_prompt_exists_in_every_language() -> None:
    # The engine's prompts at the top, each format's in its folder (`<format>/<prompt>`).
    root = ROOT / "prompts"
    names = {p.relative_to(root).as_posix().split(".")[0] for p in root.rglob("*.*.md")}
    assert {"boardroom/round1", "boardroom/synthesis", "ledger/reply", "format_repair"} <= names
    for name in sorted(names):
        for language in LANGUAGES:
            assert (ROOT / "prompts" / f"{name}.{language}.md").is_file(), (name, language)


def test_every_notice_the_engine_emits_has_a_string() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "handlers").rglob("*.py"))
    keys = set(re.findall(r'(?:Notify|Refusal)\(\s*f?"([a-z_]+\.[a-z_{}.]+)"', source))
    keys = {k for k in keys if "{" not in k} | {"moderator.mode_rules", "moderator.mode_gemini"}
    strings = Strings("ko")
    missing = sorted(k for k in keys if not strings.has(k))
    assert len(keys) > 8 and missing == []


def test_a_missing_key_or_parameter_is_a_clear_error() -> None:
    strings = Strings("en")
    with pytest.raises(LocaleError):
        strings("no.such.key")
    with pytest.raises(LocaleError, match="needs parameter"):
        strings("debater.retrying", seat="AG")


NOW = datetime(2026, 11, 29, tzinfo=UTC)


def _debate() -> Debate:
    proposal = Proposal(1, "주제", "질문?", "r", 0.9, "alice: 대화", (1,))
    return Debate(
        id=3,
        proposal=proposal,
        phase=Phase.SPEAKING,
        created_at=NOW,
        setup=Setup(4),
        floor=Floor(round=2, speaker=CLAUDE),
    )


@settings(max_examples=200, deadline=None)
@given(text=st.text(min_size=1), language=st.sampled_from(LANGUAGES))
def test_the_relayed_reply_is_byte_identical_inside_the_prompt(text: str, language: str) -> None:
    turn = Turn(3, 3, 2, AG, text, text, "0" * 64, parse_reply(text), TurnMeta(), NOW)
    ask = AskDebater(seat=CLAUDE, turn=4, round=2, shows=(3,), note="방향: 비용")
    prompt = compose_turn_prompt(_debate(), ask, turn, language)
    # Exact but for NUL and lone surrogates, which no process argument can carry.
    relayed = shown(text)
    assert relayed == text or "\x00" in text or not encodable(text)
    start = prompt.index(relayed)
    assert prompt[start : start + len(relayed)].encode() == relayed.encode()
    assert "방향: 비용" in prompt


def test_the_opening_prompt_has_the_agenda() -> None:
    ask = AskDebater(seat=AG, turn=1, round=1)
    prompt = compose_turn_prompt(_debate(), ask, None, "ko")
    for part in ("주제", "질문?", "alice: 대화", "Claude"):
        assert part in prompt
