"""Precedents through the real discord.py client: a local wiki holding an earlier debate's
Conclusion; the new card links it with the words it matched on, and the debaters get it with
the agenda. A page sharing only a filler word ("vs") with the topic is no precedent."""

from __future__ import annotations

from tests.bot.discord.conftest import KO, BotRig, People
from tests.bot.discord.support import THREADS, chat, click, wait_card
from tests.fakes.discord_limits import as_embed
from tools.wiki.backends import LocalWiki

EARLIER = "debates/캐시-무효화/conclusion"
TITLE = "캐시 무효화 — 결론"


async def test_precedent_on_the_card_and_in_the_first_brief(rig: BotRig, people: People) -> None:
    wiki = LocalWiki(rig.tmp / "wiki")
    await wiki.write(
        EARLIER, TITLE, "## 결정\nRedis 캐시 계층은 무효화를 한 곳에서 처리한다.", None
    )
    await wiki.write("debates/점심/conclusion", "점심 — 결론", "## 결정\n김밥", None)
    await wiki.write(
        "debates/vim-vs-emacs/conclusion", "vim vs emacs — 결론", "## 결정\n어느 쪽이든", None
    )
    await rig.start()
    await chat(rig, people)
    card, debate_id = await wait_card(rig)

    field = next(f for f in as_embed(card)["fields"] if f["name"] == KO("precedents.card"))
    assert field["value"].startswith(f"[{TITLE}]({wiki.url(EARLIER)}) — ")
    assert KO("precedents.why", because="redis, 계층, 캐시") in field["value"]  # why it matched
    assert "점심" not in field["value"] and "emacs" not in field["value"]

    await click(rig, card["id"], f"debate:open:{debate_id}", people.alice)
    await rig.fake.wait_for_call("POST", THREADS)
    await rig.handler.wait_idle(debate_id)
    first, *later = rig.claude.requests
    assert f"- {TITLE}: {wiki.url(EARLIER)} (" in first.prompt  # with the agenda
    assert "redis, 계층, 캐시" in first.prompt and "emacs" not in first.prompt
    assert all(TITLE not in request.prompt for request in later)
