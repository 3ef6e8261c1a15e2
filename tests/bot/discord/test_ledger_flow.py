"""With DEFAULT_FORMAT=ledger, an approved card through the Discord front end runs the whole
protocol: the card shows the assigned standpoints, every turn gets its own wiki page, and the
debate closes with the ledger (`conclusion`), the `front-page` and its diagram, and the
format's closing block in the thread; on Wiki.js the diagram is an asset the front page shows."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import quote

from bot.discord.embeds import SUMMARY_LIMIT, summary_embed
from handlers.core.i18n import Strings
from handlers.core.model import Phase
from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import chat, check_no_pings, click, wait_card
from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs

KEY = "⟦ledger.topic⟧"  # a real key Claude writes: the pages and the thread keep it as written


def claude_turn(n: int) -> str:
    body = {
        "opinion": f"Claude {n}: 운영 부담부터 봅시다",
        "stance": "partial",
        "agreed": ["단일 인스턴스에서는 LRU로 충분하다"],
        "contested": [f"Redis 전환 시점 {n} {KEY}"],
        "concessions": [],
    }
    return "```json\n" + json.dumps(body, ensure_ascii=False) + "\n```"


async def run_ledger(rig: BotRig, people: People) -> tuple[int, str]:
    """Approve a ledger card and wait for the closing block and the wiki's last write: the
    debate's id and thread."""
    rig.overrides.update({"DEFAULT_FORMAT": "ledger", "MAX_ROUNDS": 2})
    rig.claude.enqueue(claude_turn(1), claude_turn(2))
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)
    roster = card["embeds"][0]["fields"][3]["value"]
    assert "AG (찬성)" in roster and "Claude (반대)" in roster
    assert KO("ledger.end_converge") in roster
    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    thread_id = card["id"]
    closing = await rig.fake.wait_for_message(
        lambda m: (
            m["channel_id"] == thread_id
            and bool(m["embeds"])
            and m["embeds"][0].get("title") == KO("front.conclusion_title")
        ),
        timeout=30,
    )
    await asyncio.wait_for(rig.handler.wait_idle(debate_id), 30)
    debate = await rig.handler.get(debate_id)
    assert debate.phase is Phase.CONCLUDED and debate.format == "ledger"
    closing_block = closing["embeds"][0]["description"]
    assert "**Q1**" in closing_block  # the ledger's ids, not a model's
    assert f"Redis 전환 시점 2 {KEY}" in closing_block and "⟦⟦" not in closing_block
    assert rig.services is not None and rig.services.wiki is not None
    await asyncio.wait_for(rig.services.wiki.drained(debate_id), 30)
    return debate_id, thread_id


async def test_an_approved_ledger_card_runs_the_whole_protocol(rig: BotRig, people: People) -> None:
    _debate_id, thread_id = await run_ledger(rig, people)
    folder = next((rig.tmp / "wiki" / "debates").iterdir())
    turns = sorted(p.name for p in (folder / "turns").iterdir())
    assert turns == ["01-ag.md", "02-claude.md", "03-ag.md", "04-claude.md"]
    for name in ("topic.md", "conclusion.md", "front-page.md", "concepts.svg"):
        assert (folder / name).exists(), name
    assert "![diagram](concepts.svg)" in (folder / "front-page.md").read_text(encoding="utf-8")
    ledger = (folder / "conclusion.md").read_text(encoding="utf-8")
    assert "단일 인스턴스에서는 LRU로 충분하다" in ledger and f"Redis 전환 시점 2 {KEY}" in ledger
    assert "⟦" not in ledger.replace(KEY, "")  # the page's own words filled, Claude's kept
    front = (folder / "front-page.md").read_text(encoding="utf-8")
    assert f"Redis 전환 시점 2 {KEY}" in front and "⟦" not in front.replace(KEY, "")
    check_no_pings(rig, {thread_id}, rig.ag.user_id)


async def test_a_ledger_debate_on_wiki_js_shows_its_diagram(rig: BotRig, people: People) -> None:
    wiki = FakeWikiJs()
    await wiki.start()
    try:
        rig.overrides.update({"WIKIJS_URL": wiki.url, "WIKIJS_API_KEY": FULL_KEY})
        await run_ledger(rig, people)
        [asset] = wiki.assets.files  # one file, uploaded once
        assert wiki.assets.files[asset].uploads == 1 and asset.endswith("/concepts.svg")
        assert wiki.assets.files[asset].content.startswith(b"<svg")
        front = next(p for p in wiki.pages.values() if p.path.endswith("/front-page"))
        link = "/" + quote(asset, safe="/")
        assert f"![diagram]({link})" in front.content  # where Wiki.js serves it
        assert not any(p.path.endswith("concepts-svg") for p in wiki.pages.values())
        assert wiki.invalid == []
    finally:
        await wiki.stop()


def test_a_long_closing_block_says_where_the_whole_is() -> None:
    strings = Strings("ko")
    long = "\n".join(f"✅ **A{n}** " + "합의된 주장 " * 20 for n in range(1, 60))
    embed = summary_embed("ledger", long, {"conclusion": "https://wiki.test/c"}, strings)
    assert embed.description is not None and len(embed.description) <= SUMMARY_LIMIT
    assert embed.description.endswith(strings("front.summary_cut"))
    short = summary_embed("ledger", "✅ **A1** x", {}, strings)
    assert short.description == "✅ **A1** x"
