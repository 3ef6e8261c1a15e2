"""Formats, rosters and the reply contract, as plain values."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import prompts
from bot.discord.embeds import card_embed
from bot.settings import Settings
from handlers.core.formats import FORMATS, FormatTaken, UnknownFormat, formats_for
from handlers.core.formats.free.rules import FREE
from handlers.core.i18n import Strings
from handlers.core.model import AG, DEFAULT_ROSTER, Backend, ModeratorView, Phase
from handlers.core.participants import RosterError, parse_roster
from handlers.core.reply.parser import parse_reply
from tests.handlers.duo_format import DUO, registered
from tests.tools.gemini.builders import judging_debate
from tools.gemini.context import conclusion_prompt, judge_prompt

PROMPTS = Path(prompts.__file__).parent


def test_a_roster_is_read_from_participants() -> None:
    roster = parse_roster(
        "ag:ag-relay, claude:claude-cli:Claude Code, gemini:gemini-cli,"
        " critic:claude-cli:Critic:a security reviewer"
    )
    assert [m.id for m in roster] == ["ag", "claude", "gemini", "critic"]
    assert [m.backend for m in roster] == [
        Backend.AG_RELAY,
        Backend.CLAUDE_CLI,
        Backend.GEMINI_CLI,
        Backend.CLAUDE_CLI,
    ]
    assert roster[1].name == "Claude Code" and roster[2].name == "Gemini"
    assert roster[3].persona == "a security reviewer"
    assert roster[3].colour != roster[1].colour  # two voices of one backend look apart
    assert parse_roster("") == DEFAULT_ROSTER


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("ag:ag-relay", "at least two"),
        ("ag:ag-relay,ag:claude-cli", "twice"),
        ("ag:ag-relay,claude:openai", "backend must be one of"),
        ("ag:ag-relay,Claude Two:claude-cli", "lowercase"),
    ],
)
def test_a_bad_roster_is_refused_with_a_reason(text: str, says: str) -> None:
    with pytest.raises(RosterError, match=says):
        parse_roster(text)


def test_settings_check_participants_and_the_default_format() -> None:
    built = Settings(_env_file=None, PARTICIPANTS="ag:ag-relay,gemini:gemini-cli")
    assert [m.id for m in built.roster] == [AG, "gemini"] and built.DEFAULT_FORMAT == "free"
    with pytest.raises(ValueError, match="PARTICIPANTS"):
        Settings(_env_file=None, PARTICIPANTS="ag:ag-relay")
    with pytest.raises(ValueError, match="DEFAULT_FORMAT"):
        Settings(_env_file=None, DEFAULT_FORMAT="nonesuch")
    for spelled in ("pt-BR", "pt-br", " PT_BR "):  # however it is cased
        assert Settings(_env_file=None, LANGUAGE=spelled).LANGUAGE == "pt-BR"
    six = ",".join(f"p{n}:claude-cli" for n in range(6))  # the boardroom narrows it to five
    Settings(_env_file=None, PARTICIPANTS=six, DEFAULT_FORMAT="boardroom")


def test_the_formats_a_roster_allows() -> None:
    assert formats_for(DEFAULT_ROSTER) == ("free", "adversarial", "ledger", "boardroom")
    assert set(FORMATS) == {"free", "adversarial", "ledger", "boardroom"}
    assert formats_for(DEFAULT_ROSTER[:1]) == ()


def test_a_format_is_registered_once_and_a_scope_gives_back_the_registry() -> None:
    with pytest.raises(FormatTaken, match="free"):
        FORMATS.register(FREE)  # nothing can overwrite a registered format
    before = tuple(FORMATS)
    with registered(DUO):
        assert tuple(FORMATS) == ("free", "duo")
        with pytest.raises(UnknownFormat):
            FORMATS.named("ledger")
    assert tuple(FORMATS) == before


def test_only_a_format_with_no_ending_of_its_own_polls_the_people_at_a_stalemate() -> None:
    assert [name for name in FORMATS if FORMATS.named(name).stalemate_poll] == ["free"]


def test_the_closing_summary_links_only_pages_that_exist() -> None:
    started = replace(
        judging_debate(),
        phase=Phase.CONCLUDED,
        floor=replace(judging_debate().floor, log=(), turns=0),
    )
    assert FREE.pages(started) == ("agenda", "conclusion")
    talked = replace(started, floor=replace(started.floor, log=((1, AG),), turns=1))
    assert FREE.pages(talked) == ("agenda", "round-log", "conclusion")
    drafted = replace(talked, moderation=replace(talked.moderation, working_document="## 초안"))
    assert FREE.pages(drafted) == ("agenda", "working-document", "round-log", "conclusion")


def test_the_conclusion_reads_the_working_document() -> None:
    debate = replace(
        judging_debate(),
        moderation=replace(
            judging_debate().moderation, working_document="## 결정\n\nRedis를 쓴다 (공유 캐시)"
        ),
    )
    text = "\n".join(m for _, m in conclusion_prompt(ModeratorView(debate), "ko").messages)
    assert "Redis를 쓴다 (공유 캐시)" in text


def test_the_moderator_is_told_to_turn_a_question_to_the_people_into_buttons() -> None:
    prompt = judge_prompt(ModeratorView(judging_debate()), "en")
    assert re.search(r"asks the people a question.*`ask_user`", prompt.system, re.DOTALL)


def test_one_reply_contract_with_a_real_example() -> None:
    system = prompts.load("debate_participant", None, language_name="English")
    start = system.index("```json\n{")
    example = system[start : system.index("\n```", start + 7) + 4]
    parsed = parse_reply(example)
    assert parsed.structured and parsed.stance is not None and parsed.wiki_action is not None
    assert parsed.wiki_action.mode in ("append", "replace") and parsed.question is not None
    assert "replace or append" not in system and "opponent or user" not in system
    assert "nothing outside it" in system
    for path in PROMPTS.glob("debate_*.*.md"):  # every turn prompt asks for the block alone
        text = path.read_text(encoding="utf-8")
        assert "End your reply" not in text and "응답 끝에" not in text, path.name


def test_the_card_estimates_the_format_s_turns_and_requests() -> None:
    two = replace(
        judging_debate(), phase=Phase.PROPOSED, setup=replace(judging_debate().setup, max_rounds=3)
    )
    three = replace(
        two,
        setup=replace(
            two.setup, roster=parse_roster("ag:ag-relay,claude:claude-cli,gemini:gemini-cli")
        ),
    )
    assert FREE.estimate(two) == (6, 8) and FREE.estimate(three) == (9, 11)
    fields = {f.name: f.value for f in card_embed(three, Strings("en")).fields}
    assert fields["Format"] == (
        "Free debate · up to 3 rounds · about 18-36 min, about 11 moderator requests"
    )
    assert fields["Debaters"] == "AG · Claude · Gemini"
