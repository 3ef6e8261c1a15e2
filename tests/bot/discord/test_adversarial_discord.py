"""With DEFAULT_FORMAT=adversarial, an approved card on Discord runs the intake, the roles and
the output: every role's answer posted in full in its colour, the probes and Validator in the
thread, the summary embed with a link to the debate-result page, and the page written; the
summary and the page speak the debate's language (Korean here)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.discord.embeds import GREY, summary_embed
from handlers.core.formats.adversarial import RECONCILER_ID
from handlers.core.model import Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import chat, click, wait_card
from tests.handlers.adversarial_script import intake, probe, reconciler, validator
from tests.tools.claude.test_adversarial_real import EITHER_ROLE


async def test_an_adversarial_debate_through_discord(rig: BotRig, people: People) -> None:
    # AG's prefix answer has no JSON block to end it: the relay takes it once AG is quiet.
    rig.overrides.update({"DEFAULT_FORMAT": "adversarial", "AG_QUIET_SECONDS": 0.5})
    rig.ag.reply_for = lambda turn: EITHER_ROLE  # type: ignore[method-assign]
    rig.claude.enqueue(EITHER_ROLE, reconciler("ko"))  # Claude's role, then the Reconciler
    rig.moderator.task_outputs.update(
        {
            "intake": [intake(4, high_stakes=True)],
            "probe-cost": [probe("cost-first", True)],
            "probe-alternatives": [probe("alternatives-first", False)],
            "validator": [validator()],
        }
    )
    await rig.start()
    assert rig.services is not None and rig.services.wiki is not None
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    summary = await rig.fake.wait_for_message(
        lambda m: bool(m["embeds"]) and m["embeds"][0].get("title") == KO("front.summary_title")
    )
    embed = summary["embeds"][0]
    assert embed["color"] == GREY.value and embed["description"].startswith("**MODIFY**")
    block = embed["description"]
    assert "단계: FULL · 사전 감사: debate-ready · 확신도: CONFIRMED" in block
    assert "검증: PASS-WITH-CAVEATS" in block and "- 검증자: E3 was not weighed" in block
    assert not any(label in block for label in ("Tier:", "Confidence:", "Validation:", "⟦"))
    assert "fields" not in embed  # the local wiki's file:// pages are not linked on Discord
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 10)
    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.CONCLUDED
    thread = [m["content"] for m in rig.bot_messages(card["id"])]
    said = "\n".join(thread)
    assert "TIER 자동 판정: FULL (근거: 위험이 크거나 되돌리기 어려움" in said  # in Korean
    assert "AUTO-DETECTED" not in said and "high-stakes" not in said
    audit = next(text for text in thread if text.startswith("🧾"))  # the intake audit, in Korean
    assert "- 명제: Adopt Redis as the shared cache layer\n" in audit
    assert (
        "- 반대 근거 명시: 예\n" in audit
        and "- 단계: FULL (위험이 크거나 되돌리기 어려움)" in audit
    )
    english = ("Proposition:", "Decision focus:", "Evidence inventory:", "Opposition explicitly",
               "Known gaps:", "Optional state:", "Tier:", "Intake status:", "high-stakes",
               "⟦")  # fmt: skip
    assert [label for label in english if label in audit] == []
    assert "[STABLE] no — under alternatives-first" in said and "[RESULT] PASS-WITH-CAVEATS" in said
    reconciler_turn = next(
        m for m in rig.fake.messages_in(card["id"]) if m["embeds"] and "Reconciler" in str(m)
    )
    assert reconciler_turn is not None
    await rig.services.wiki.drained(debate_id)
    pages = list(Path(rig.tmp / "wiki").rglob("debate-result.md"))
    assert len(pages) == 1
    text = pages[0].read_text(encoding="utf-8")
    assert "### 조정자의 판정: MODIFY" in text and "### Reconciler's Verdict" not in text
    assert RECONCILER_ID in [m.id for m in debate.roster]


def test_the_summary_embed_links_a_format_s_own_pages() -> None:
    links = {"agenda": "https://wiki.test/a", "debate-result": "https://wiki.test/r"}
    embed = summary_embed("adversarial", "**ADOPT** — yes", links, KO).to_dict()
    assert embed["description"] == "**ADOPT** — yes" and embed["title"] == KO("front.summary_title")
    value = embed["fields"][0]["value"]
    assert f"[{KO('adversarial.page_debate-result')}](https://wiki.test/r)" in value
    assert f"[{KO('front.page_agenda')}](https://wiki.test/a)" in value
