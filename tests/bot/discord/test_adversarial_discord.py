"""An adversarial debate run to its end through the real discord.py client, against the fake
Discord and the fake Wiki.js, in Korean and in Portuguese: every role's answer posted in its
colour, the probes and Validator in the thread, and the Reconciler's verdict as the debate's
Conclusion (one closing post that names it and links the debate-result page; no moderator's
Conclusion after it); AG's echo of its relay tag shows in no embed and no page."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime

import pytest

from bot.discord.embeds import GREY, summary_embed
from bot.formatting import status_line
from handlers.core.formats.adversarial.rules import RECONCILER_ID
from handlers.core.i18n import Strings
from handlers.core.model import Outcome, Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import chat, click, wait_card
from tests.fakes.discord_limits import as_embed, visible_text
from tests.fakes.discord_world import Json
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs
from tests.handlers.adversarial_script import either_role, intake, probe, reconciler, validator

RELAY_TAG = re.compile(r"\[debate \d+ · turn \d+\]")
THREAD_WORDS = {  # the tier notice and the audit, in the debate's language
    "ko": ("단계 자동 판정: FULL (근거: 위험이 크거나 되돌리기 어려움", "- 반대 근거 명시: 예\n"),
    "pt-BR": ("NÍVEL DETECTADO: FULL (motivos: ", "- Oposição explicitamente presente: sim\n"),
}


def _embed_texts(message: Json) -> list[str]:
    """Every text an embed of `message` shows."""
    texts = []
    for embed in message["embeds"]:
        texts += [embed.get("title", ""), embed.get("description", "")]
        texts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
        texts.append(embed.get("footer", {}).get("text", ""))
    return texts


async def _run(rig: BotRig, people: People, lang: str) -> tuple[int, str, Json]:
    """Approve an adversarial card; AG echoes its relay tag. The debate, thread and closing."""
    either = either_role(lang)
    rig.claude.enqueue(either, reconciler(lang))  # Claude's role, then the Reconciler
    rig.moderator.task_outputs.update(
        {
            "intake": [intake(4, high_stakes=True)],
            "probe-cost": [probe("cost-first", True)],
            "probe-alternatives": [probe("alternatives-first", False)],
            "validator": [validator()],
        }
    )
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    rig.ag.reply_for = lambda turn: f"[debate {debate_id} · turn {turn}]\n{either}"  # type: ignore[method-assign]  # AG's answer, scripted
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    title = Strings(lang)("front.conclusion_title")
    closing = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == card["id"]
            and bool(as_embed(m))
            and as_embed(m).get("title") == title
        ),
        timeout=30,
    )
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)
    assert rig.services is not None and rig.services.wiki is not None
    await asyncio.wait_for(rig.services.wiki.drained(debate_id), 30)
    return debate_id, card["id"], closing


@pytest.mark.parametrize("lang", ["ko", "pt-BR"])
async def test_an_adversarial_debate_ends_in_the_reconciler_s_verdict(
    rig: BotRig, people: People, lang: str
) -> None:
    wiki = FakeWikiJs()
    await wiki.start()
    t = Strings(lang)
    try:
        rig.overrides.update(
            {
                "DEFAULT_FORMAT": "adversarial",
                "AG_QUIET_SECONDS": 0.5,
                "LANGUAGE": lang,
                "WIKIJS_URL": wiki.url,
                "WIKIJS_API_KEY": FULL_KEY,
            }
        )
        debate_id, thread_id, closing = await _run(rig, people, lang)
        debate = await rig.handler.get(debate_id)
        assert debate.phase is Phase.CONCLUDED and debate.ending.outcome is Outcome.VERDICT
        assert t("front.outcome_verdict") in status_line(debate, t, datetime.now(UTC))
        assert RECONCILER_ID in [m.id for m in debate.setup.roster]
        # The one closing post names the verdict and links the page that records it.
        embed = as_embed(closing)
        verdict = f"⚖️ {t('adversarial.result.verdict')}: **MODIFY**"
        assert embed["color"] == GREY.value and embed["description"].startswith(verdict)
        [result] = [p for p in wiki.pages.values() if p.path.endswith("/debate-result")]
        assert rig.services is not None and rig.services.wiki is not None
        url = rig.services.wiki.page_url(debate, "debate-result")
        assert url.startswith(wiki.url) and url.endswith("/debate-result")
        assert f"[{t('adversarial.page_debate-result')}]({url})" in embed["fields"][0]["value"]
        thread = rig.fake.messages_in(thread_id)
        titles = [as_embed(m).get("title") for m in thread if as_embed(m)]
        assert titles.count(t("front.conclusion_title")) == 1 and rig.moderator.conclusions == 0
        said = "\n".join(visible_text(m) for m in rig.bot_messages(thread_id))
        assert all(words in said for words in THREAD_WORDS[lang])
        assert "[STABLE] no — under alternatives-first" in said
        # The pages: the result in the seed's output format; no moderator's Conclusion page.
        page = result.content
        assert f"### {t('adversarial.result.verdict')}: MODIFY" in page
        columns = (
            "col_point",
            "col_basis",
            "role_advocate",
            "role_challenger",
            "role_reconciler",
            "role_validator",
        )
        assert "| " + " | ".join(t(f"adversarial.result.{c}") for c in columns) + " |" in page
        tiers = (t("adversarial.result.tier_mid"), t("adversarial.result.tier_top"))
        assert f"{t('adversarial.result.tiers_used')}:\n- {tiers[0]}: " in page
        assert f"- {tiers[1]}: " in page and "DEBATE: tier=full, proposition=" in page
        assert not [p.path for p in wiki.pages.values() if p.path.endswith("/conclusion")]
        # AG's relay tag is addressing: in no embed, no page.
        shown = [text for m in thread if m["embeds"] for text in _embed_texts(m)]
        assert not [text for text in shown if RELAY_TAG.search(text)]
        assert not [p.path for p in wiki.pages.values() if RELAY_TAG.search(p.content)]
        assert either_role(lang) in page  # AG's answer, whole, without its tag
    finally:
        await wiki.stop()


def test_the_summary_embed_links_a_format_s_own_pages() -> None:
    links = {"agenda": "https://wiki.test/a", "debate-result": "https://wiki.test/r"}
    embed = summary_embed("adversarial", "**ADOPT** — yes", links, KO).to_dict()
    assert embed["description"] == "**ADOPT** — yes" and embed["title"] == KO("front.summary_title")
    value = embed["fields"][0]["value"]
    assert f"[{KO('adversarial.page_debate-result')}](https://wiki.test/r)" in value
    assert f"[{KO('front.page_agenda')}](https://wiki.test/a)" in value
