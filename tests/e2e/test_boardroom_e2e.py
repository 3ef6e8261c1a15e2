"""The boardroom end to end: `debate-room` as a subprocess with DEFAULT_FORMAT=boardroom and a
three-member panel (AG through the Discord relay, Claude through the real `claude` CLI, Gemini
through the real `gemini` CLI), on the fake Discord, Gemini, Anthropic API and Wiki.js, in
Korean and in Portuguese."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from handlers.core.i18n import Strings
from tests.clis import GEMINI_BIN, installed_or_skip
from tests.e2e.harness import World
from tests.e2e.observe import assert_clean_logs, assert_each_turn_once, turn_footers
from tests.handlers.boardroom_script import position, rebuttal

pytestmark = pytest.mark.e2e
TAG = re.compile(r"\[debate \d+ · turn \d+\]")

CHATS = {
    "ko": (
        ("alice", "결제 이벤트를 Postgres outbox로 갈지 Redis Streams로 갈지 아직 못 정했네"),
        ("carol", "outbox가 맞지 않아? 근데 폴링 지연이… 어떻게 할까"),
        ("alice", "둘 다 장단점이 있어서 애매하다. 이번 주 안에 결정해야 해"),
    ),
    "pt-BR": (
        ("alice", "Precisamos decidir: outbox no Postgres vs Redis Streams para os pagamentos"),
        ("carol", "Devemos escolher o outbox? O polling me preocupa, prós e contras dos dois"),
        ("alice", "Temos que tomar a decisão esta semana, vs Redis o outbox é mais simples"),
    ),
}
# What marks each request to the fake Gemini (the last one that matches wins the order below).
ROUND2 = {"ko": "최종 투표", "pt-BR": "VOTO FINAL"}
ROUND1 = {"ko": "1. 투표:", "pt-BR": "1. VOTO:"}
SYNTHESIS = {
    "tracker": [{"member": "gemini", "why": "Claude의 감사 논거"}],
    "tensions": ["속도 대 감사"],
    "insight": "LISTEN/NOTIFY",
    "conditions": ["부하 시험"],
    "irreconcilable": False,
    "recommendation": "outbox 채택",
    "guardrails": ["부하 시험 먼저"],
    "question": "",
    "options": [],
}


async def ended(world: World, thread: str) -> None:
    """The final status line and the synthesis page (the boardroom writes no Conclusion)."""
    await world.wait_for(lambda: world.status_ended(thread), "the end", timeout=180)
    await world.wait_for(lambda: world.page("synthesis"), "the synthesis page")


def gemini_answers(language: str) -> Any:
    """The fake Gemini's answers: the synthesis for the moderator, JSON contracts for the
    Gemini CLI participant, and the automatic answers for everything else."""

    def answer(schema: dict[str, Any], text: str) -> dict[str, Any] | None:
        if "debate_worthy" in json.dumps(schema):  # detection: the moderator suggests the format
            return {
                "debate_worthy": True,
                "topic": "outbox vs Streams",
                "confidence": 0.9,
                "question": "Adopt the Postgres outbox?",
                "reason": "an open decision",
                "suggested_format": "boardroom",
                "format_reason": "a panel vote",
            }
        fields = schema.get("properties") or {}
        if "review" in fields:  # the advisor's review of the draft
            return SYNTHESIS | {"review": "초안을 확인함"}
        if "tracker" in fields:
            return SYNTHESIS
        if "Gemini [product owner]" not in text:
            return None  # the moderator's detection and Conclusion: the automatic answers
        if ROUND2[language] in text:
            return {
                "final_vote": "conditional",
                "why_changed": "Claude의 감사 논거",
                "agreement": "with Claude",
                "disagreement": "with AG",
                "insight": "gemini insight",
                "consensus_condition": "a load test",
            }
        if ROUND1[language] in text:
            return {
                "vote": "no",
                "argument": "gemini argument",
                "risks": ["g1", "g2"],
                "conditions": "gemini conditions",
                "metrics": ["gm1", "gm2"],
            }
        return None

    return answer


def conditional_word(language: str) -> str:
    return "조건부" if language == "ko" else "CONDICIONAL"


PANEL = (
    "ag:ag-relay:AG:architect,claude:claude-cli:Claude:security reviewer,"
    "gemini:gemini-cli:Gemini:product owner"
)


def prepare(world: World, language: str) -> dict[str, str]:
    """The fakes' answers for the panel; returns the bot's settings."""
    gemini_bin = installed_or_skip(GEMINI_BIN, "gemini")
    world.gemini.responder = gemini_answers(language)
    home = world.tmp / "claude-config" / ".gemini"  # the CLIs' HOME is the config folder
    home.mkdir(parents=True, exist_ok=True)
    auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (home / "settings.json").write_text(json.dumps(auth), encoding="utf-8")
    world.anthropic.script_replies(  # Claude's two answers, then the advisor's review on its
        position("claude", "conditional", language),  # own session (ADVISOR=auto: a Claude seat)
        rebuttal("claude", "conditional", language),
        json.dumps(SYNTHESIS | {"review": "초안을 확인함"}),
    )
    world.ag.replies = [
        echoing(position("ag", "yes", language)),
        echoing(rebuttal("ag", "yes", language)),
    ]
    return {
        "DEFAULT_FORMAT": "boardroom",
        "LANGUAGE": language,
        "PARTICIPANTS": PANEL,
        "GEMINI_CLI_BIN": str(gemini_bin),
    }


@pytest.mark.parametrize("language", ["ko", "pt-BR"])
async def test_a_boardroom_debate_runs_with_three_real_participants(
    world: World, language: str
) -> None:
    await world.start_bot(**prepare(world, language))
    thread = await world.approve(await world.chat(CHATS[language]))
    await ended(world, thread)
    # Claude answered each time through the CLI's own check of the shape (`--json-schema`,
    # the default): its round's object, its vote in the debate's words, then the advisor's.
    offered = [
        next(t for t in body["tools"] if t["name"] == "StructuredOutput")["input_schema"]
        for body in world.anthropic.messages()
    ]
    assert [next(iter(schema["properties"])) for schema in offered] == [
        "vote",
        "final_vote",
        "tracker",
    ]
    assert conditional_word(language) in offered[0]["properties"]["vote"]["enum"]

    root = f"debates/{world.slug()}"
    synthesis = await world.wait_for(
        lambda: world.wiki.page_at(f"{root}/synthesis"), "the synthesis page"
    )
    no, conditional = ("반대", "조건부") if language == "ko" else ("NÃO", "CONDICIONAL")
    assert f"| Gemini | {no} | {conditional} |" in synthesis.content  # the vote tracker
    assert "Claude의 감사 논거" in synthesis.content  # the change, with its reason
    assert "초안을 확인함" in synthesis.content  # reviewed by the advisor, and said so
    reviewer = Strings(language)("boardroom.reviewed_by")
    assert f"> {reviewer}: Claude (" in synthesis.content  # on Claude, its model named
    for seat in ("ag", "claude", "gemini"):
        for number in (1, 2):
            page = await world.wait_for(
                lambda s=seat, n=number: world.wiki.page_at(f"{root}/round-{n}/{s}"),
                f"round-{number}/{seat}",
            )
            assert page.content.strip()
    shown = world.embed_text(thread)
    assert "ag risk one" in shown and "claude metric two" in shown and "gemini argument" in shown
    result = "다수" if language == "ko" else "MAIORIA"  # yes, conditional, conditional
    assert result in shown  # the closing block
    assert not TAG.search(shown)  # the echo is addressing: in no embed, no page
    assert not any(TAG.search(page.content) for page in world.wiki.pages.values())
    ag_round_one = world.ag.prompts[0].content
    assert "claude risk one" not in ag_round_one and "gemini argument" not in ag_round_one


def echoing(answer: str) -> Callable[[str], str]:
    """AG's answer opening with its echo of the prompt's relay tag, as Gemini Pro tends to."""
    return lambda prompt: f"{TAG.search(prompt).group(0)} {answer}"  # type: ignore[union-attr]  # every brief carries the tag


def stored_turns(world: World) -> int:
    """How many answers the bot's database holds (read beside the running bot)."""
    with contextlib.closing(sqlite3.connect(world.tmp / "bot.sqlite3")) as db:
        try:
            return int(db.execute("SELECT COUNT(*) FROM turns").fetchone()[0])
        except sqlite3.OperationalError:  # not created yet
            return 0


def gemini_round_one_asks(world: World) -> int:
    return sum(
        1
        for r in world.gemini.generate_requests
        if "Gemini [product owner]" in r["text"] and ROUND2["ko"] not in r["text"]
    )


async def test_killed_in_round_one_between_two_answers(world: World) -> None:
    settings = prepare(world, "ko")
    world.anthropic.script("hold")  # Claude's first answer hangs until the kill
    await world.start_bot(**settings)
    thread = await world.approve(await world.chat(CHATS["ko"]))
    await world.anthropic.wait_messages(1)
    await world.wait_for(lambda: stored_turns(world) >= 2, "AG's and Gemini's answers stored")
    assert not turn_footers(world, thread)  # held back: round 1 is not in the thread yet
    await world.crash()

    await world.start_bot(**settings)
    await ended(world, thread)
    assert assert_each_turn_once(world, thread) == 7  # six votes and the advisor's review
    assert sorted(world.ag.prompted_turns()) == [1, 4]  # AG's stored answer was not asked again
    assert gemini_round_one_asks(world) == 1  # nor Gemini's
    assert len(world.anthropic.message_requests()) == 4  # the lost call, one per round, review
    await world.wait_for(lambda: world.page("synthesis"), "the synthesis page")
    assert_clean_logs(world)
